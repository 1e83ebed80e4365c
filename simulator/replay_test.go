package simulator_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/retrysim/retrysim/policies"
	"github.com/retrysim/retrysim/policies/policytest"
	"github.com/retrysim/retrysim/report"
	"github.com/retrysim/retrysim/simulator"
	"github.com/retrysim/retrysim/simulator/capture"
	"github.com/retrysim/retrysim/simulator/capture/capturetest"
	"github.com/retrysim/retrysim/simulator/demo"
)

func mustCapture(t *testing.T, name string) capture.Request {
	t.Helper()
	c, err := capture.Parse(capturetest.Bytes(t, name), capture.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// demoSecret is the secret the demo handler expects by default: the one
// retrysim generates for the provider from seed 1.
func demoSecret(provider string) string { return policies.GenerateSecret(provider, 1) }

func mustDemo(t *testing.T, mode demo.Mode, opts ...demo.Option) *demo.Handler {
	t.Helper()
	h, err := demo.New(mode, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	return h
}

// Replaying a captured Stripe delivery ten times: the idempotent handler
// writes once and answers 2xx every time; the naive one writes ten times.
// Through a real loopback server and in process alike.
func TestReplayStripeCapture(t *testing.T) {
	for _, tc := range []struct {
		mode       demo.Mode
		writes     []int
		verdict    simulator.Verdict
		checksPass bool
	}{
		{demo.Idempotent, []int{1, 0, 0, 0, 0, 0, 0, 0, 0, 0}, simulator.VerdictIdempotent, true},
		{demo.Naive, []int{1, 1, 1, 1, 1, 1, 1, 1, 1, 1}, simulator.VerdictNotIdempotent, false},
	} {
		for _, inProcess := range []bool{false, true} {
			name := string(tc.mode) + "/loopback"
			if inProcess {
				name = string(tc.mode) + "/in-process"
			}
			t.Run(name, func(t *testing.T) {
				h := mustDemo(t, tc.mode)
				cfg := simulator.ReplayConfig{
					Capture: mustCapture(t, "stripe.http"), Secret: demoSecret("stripe"), Effects: h.Effects,
					EffectsExact: true, // the demo's own oracle answers once its work is done
				}
				if inProcess {
					cfg.Handler = h
				} else {
					srv := httptest.NewServer(h)
					defer srv.Close()
					cfg.URL = srv.URL + "/webhooks/stripe"
				}
				res, err := simulator.Replay(context.Background(), cfg)
				if err != nil {
					t.Fatal(err)
				}
				if len(res.Sends) != simulator.DefaultReplayTimes {
					t.Fatalf("%d sends, want the default %d", len(res.Sends), simulator.DefaultReplayTimes)
				}
				var writes []int
				for _, s := range res.Sends {
					if s.Status != 200 || !s.Reached {
						t.Errorf("send %d: status %d reached %v (%s), want 200", s.N, s.Status, s.Reached, s.Error)
					}
					writes = append(writes, s.Writes)
				}
				if !slices.Equal(writes, tc.writes) {
					t.Errorf("writes per send %v, want %v", writes, tc.writes)
				}
				if res.Writes() != sum(tc.writes) || res.Verdict() != tc.verdict {
					t.Errorf("writes %d verdict %s, want %d %s", res.Writes(), res.Verdict(), sum(tc.writes), tc.verdict)
				}
				if res.Provider != "stripe" || res.Policy != "stripe" || !res.Timestamped || !res.Resigned || !strings.HasPrefix(res.DedupID, "evt_") {
					t.Errorf("replay of %s (%s) id %q timestamped %v resigned %v; want stripe, timestamped, re-signed", res.Provider, res.Policy, res.DedupID, res.Timestamped, res.Resigned)
				}
				allPass := true
				for _, c := range res.Checks() {
					allPass = allPass && c.Status == simulator.CheckPass
				}
				if allPass != tc.checksPass {
					t.Errorf("checks %+v, want all passing: %v", res.Checks(), tc.checksPass)
				}
			})
		}
	}
}

func sum(xs []int) int {
	n := 0
	for _, x := range xs {
		n += x
	}
	return n
}

// Sends follow the policy's schedule in virtual time, and go on at its last
// delay past its end.
func TestReplayFollowsTheSchedule(t *testing.T) {
	pol := policytest.Lookup(t, "slack")
	h := mustDemo(t, demo.Idempotent)
	res, err := simulator.Replay(context.Background(), simulator.ReplayConfig{
		Capture: mustCapture(t, "slack.http"), Policy: pol, Handler: h, Times: 6, Secret: demoSecret("slack"),
	})
	if err != nil {
		t.Fatal(err)
	}
	// slack: retries 1s, 30s and 5m after each failure; then 5m again.
	want := []float64{0, 1, 31, 331, 631, 931}
	for i, s := range res.Sends {
		if s.AtSeconds != want[i] || s.PastSchedule != (i >= 4) {
			t.Errorf("send %d at +%gs past schedule %v, want +%gs %v", s.N, s.AtSeconds, s.PastSchedule, want[i], i >= 4)
		}
		if got := s.Time.Sub(simulator.DefaultStart()).Seconds(); got != want[i] {
			t.Errorf("send %d virtual time +%gs, want +%gs", s.N, got, want[i])
		}
	}
	if res.Judge().Reason != simulator.ReplayNoOracle || !strings.Contains(report.ReplayVerdictLine(res, nil), "Config.Effects") {
		t.Errorf("without an oracle: verdict %s, %q; want unknown, naming Config.Effects", res.Verdict(), report.ReplayVerdictLine(res, nil))
	}
}

// The ttl handler keeps a key for its TTL of virtual time: on Stripe's
// schedule, a send writes again exactly when it comes more than the TTL
// after the last write.
func TestReplayTTLHandlerExpiresOnVirtualTime(t *testing.T) {
	pol := policytest.Lookup(t, "stripe")
	for _, ttl := range []time.Duration{time.Hour, 6 * time.Hour, 100 * time.Hour} {
		t.Run(policies.FormatDuration(ttl), func(t *testing.T) {
			h := mustDemo(t, demo.TTL, demo.WithTTL(ttl))
			res, err := simulator.Replay(context.Background(), simulator.ReplayConfig{
				Capture: mustCapture(t, "stripe.http"), Handler: h, Times: 16, Secret: demoSecret("stripe"), Effects: h.Effects,
			})
			if err != nil {
				t.Fatal(err)
			}
			var last time.Duration
			for i, s := range res.Sends {
				at := pol.Offset(i + 1)
				want := 0
				if i == 0 || at-last > ttl {
					want, last = 1, at
				}
				if s.Writes != want {
					t.Errorf("send %d at +%s: %d writes, want %d (TTL %s, last write at +%s)", s.N, policies.FormatDuration(at), s.Writes, want, policies.FormatDuration(ttl), policies.FormatDuration(last))
				}
			}
			t.Logf("TTL %s: %d writes for %d sends over %s", policies.FormatDuration(ttl), res.Writes(), len(res.Sends), policies.FormatDuration(pol.Window()))
			leaks := ttl < pol.Window()
			if (res.Verdict() == simulator.VerdictNotIdempotent) != leaks {
				t.Errorf("TTL %s against a %s window: verdict %s", policies.FormatDuration(ttl), policies.FormatDuration(pol.Window()), res.Verdict())
			}
		})
	}
}

// check-then-act gets retries one after another right, and two overlapping
// deliveries wrong. Replay leaves no goroutine behind: its connections are
// closed when it returns.
func TestReplayCheckThenAct(t *testing.T) {
	for _, concurrent := range []bool{false, true} {
		t.Run(map[bool]string{false: "on the schedule", true: "concurrent"}[concurrent], func(t *testing.T) {
			h, err := demo.New(demo.CheckThenAct)
			if err != nil {
				t.Fatal(err)
			}
			defer h.Close()
			srv := httptest.NewServer(h)
			defer srv.Close()
			// Checked while the server still runs: a connection the replay
			// kept open would keep a goroutine on each side.
			defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
			res, err := simulator.Replay(context.Background(), simulator.ReplayConfig{
				Capture: mustCapture(t, "stripe.http"), URL: srv.URL + "/webhooks/stripe", Concurrent: concurrent,
				Secret: demoSecret("stripe"), Effects: simulator.EffectsURL(srv.URL+demo.EffectsPath, nil),
				SettleLimit: 400 * time.Millisecond,
			})
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%d writes for %d sends", res.Writes(), len(res.Sends))
			want := simulator.VerdictIdempotent
			if concurrent {
				want = simulator.VerdictNotIdempotent
			}
			if res.Verdict() != want {
				t.Errorf("verdict %s with %d writes, want %s", res.Verdict(), res.Writes(), want)
			}
			for _, s := range res.Sends {
				if !s.OK() {
					t.Errorf("send %d answered %d (%s)", s.N, s.Status, s.Error)
				}
			}
		})
	}
}

// Without a secret the captured signature is sent as it is: its timestamp
// is long stale, the handler refuses it, and the checks say why.
func TestReplayWithoutSecretKeepsTheCapturedSignature(t *testing.T) {
	h := mustDemo(t, demo.Idempotent)
	c := mustCapture(t, "stripe.http")
	res, err := simulator.Replay(context.Background(), simulator.ReplayConfig{Capture: c, Handler: h, Times: 2, Effects: h.Effects})
	if err != nil {
		t.Fatal(err)
	}
	if res.Resigned || res.Sends[0].Status != 401 {
		t.Fatalf("resigned %v, first status %d; want the captured signature refused with 401", res.Resigned, res.Sends[0].Status)
	}
	checks := report.ReplayChecks(res, nil)
	if checks[0].Status != simulator.CheckFail || !strings.Contains(checks[0].What, "Re-sign") {
		t.Errorf("first check %+v, want a failure suggesting re-signing", checks[0])
	}
	if res.Verdict() != simulator.VerdictNone {
		t.Errorf("verdict %s, want unknown: the handler never processed the event", res.Verdict())
	}
}

func TestDetectWire(t *testing.T) {
	for _, tc := range []struct {
		file, provider string
		timestamped    bool
		sigs           []string
	}{
		{"stripe.http", "stripe", true, []string{"Stripe-Signature"}},
		{"github.http", "github", false, []string{"X-Hub-Signature", "X-Hub-Signature-256"}},
		{"slack.http", "slack", true, []string{"X-Slack-Request-Timestamp", "X-Slack-Signature"}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			c := mustCapture(t, tc.file)
			w, err := simulator.DetectWire(c)
			if err != nil || w.Name() != tc.provider {
				t.Fatalf("detected %v, %v; want %s", w, err, tc.provider)
			}
			res, err := simulator.Replay(context.Background(), simulator.ReplayConfig{Capture: c, Handler: mustDemo(t, demo.Naive), Times: 1})
			if err != nil {
				t.Fatal(err)
			}
			if res.Timestamped != tc.timestamped || !slices.Equal(res.SignatureHeaders, tc.sigs) {
				t.Errorf("timestamped %v, signature headers %v; want %v %v", res.Timestamped, res.SignatureHeaders, tc.timestamped, tc.sigs)
			}
		})
	}
}

func TestReplayRefuses(t *testing.T) {
	c := mustCapture(t, "stripe.http")
	github := policytest.Lookup(t, "github")
	unsigned := c
	unsigned.Header = unsigned.Header.Clone()
	unsigned.Header.Del("Stripe-Signature")
	longID := c
	longID.Body = bytes.Replace(c.Body, []byte("evt_1umcRD4VXxBs7KPBXpxgOSjw"), []byte("evt_"+strings.Repeat("A", 70_000)), 1)
	for _, tc := range []struct {
		name string
		cfg  simulator.ReplayConfig
		is   error
		msg  string
	}{
		{"a remote target", simulator.ReplayConfig{Capture: c, URL: "http://192.0.2.10/webhooks/stripe"}, simulator.ErrRemoteTarget, "Config.AllowRemote"},
		{"the capture's own remote URL", simulator.ReplayConfig{Capture: c}, simulator.ErrRemoteTarget, "api.example.com"},
		{"a policy of another provider", simulator.ReplayConfig{Capture: c, Policy: github, URL: "http://127.0.0.1:1/"}, simulator.ErrConfig, "stripe's signature headers, but policy github"},
		{"an unsigned capture with no policy", simulator.ReplayConfig{Capture: unsigned, URL: "http://127.0.0.1:1/"}, simulator.ErrConfig, "cannot tell the provider"},
		{"too many times", simulator.ReplayConfig{Capture: c, URL: "http://127.0.0.1:1/", Times: simulator.MaxReplayTimes + 1}, simulator.ErrConfig, "ReplayConfig.Times must be 1..10000"},
		{"a dedup id longer than an event carries", simulator.ReplayConfig{Capture: longID, URL: "http://127.0.0.1:1/"}, simulator.ErrConfig, "the longest an event may carry is 65535 bytes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := simulator.Replay(context.Background(), tc.cfg)
			if !errors.Is(err, tc.is) || !strings.Contains(err.Error(), tc.msg) {
				t.Fatalf("error %v, want %v mentioning %q", err, tc.is, tc.msg)
			}
		})
	}
}

// Every provider's capture is told apart by its signature headers, and a
// replay re-signed with the secret passes that provider's own verification
// at the time it is sent, captured long before; the dedup id never changes.
func TestReplayResignsEveryWire(t *testing.T) {
	captured := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	for _, name := range policies.WireNames() {
		t.Run(name, func(t *testing.T) {
			w, _ := policies.WireFor(name)
			secret := policies.GenerateSecret(name, 7)
			ev := policies.Event{Seed: 99, Type: w.DefaultEventType(), Created: captured}
			w.NewEvent(&ev)
			body, ctype := w.Body(ev)
			h := http.Header{}
			h.Set("Content-Type", ctype)
			w.Header(h, policies.Delivery{Event: ev, N: 1, Body: body, URL: "https://hooks.example/in", Secret: secret, SignedAt: captured})
			c := capture.Request{Method: "POST", URL: "https://hooks.example/in", Header: h, Body: body}
			detected, err := simulator.DetectWire(c)
			if err != nil || detected.Name() != name {
				t.Fatalf("detected %v, %v; want %s", detected, err, name)
			}
			wantID, _ := w.DedupID(h, body)
			var verified, sends int
			var verr error
			handler := http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
				b, _ := io.ReadAll(r.Body)
				sends++
				if err := w.Verify(r.Header, b, "http://"+r.Host+r.URL.RequestURI(), secret, time.Now()); err != nil {
					verr = err
				} else if id, _ := w.DedupID(r.Header, b); id == wantID {
					verified++
				}
				rw.WriteHeader(http.StatusOK)
			})
			pol := policies.Policy{Name: name, Provider: name, Timeout: policies.Duration(10 * time.Second), Schedule: policies.ScheduleSpec{Delays: []policies.Duration{}}}
			if err := pol.Init(); err != nil {
				t.Fatal(err)
			}
			if _, err := simulator.Replay(context.Background(), simulator.ReplayConfig{Capture: c, Policy: pol, Handler: handler, Times: 2, Secret: secret}); err != nil {
				t.Fatal(err)
			}
			if sends != 2 || verified != 2 {
				t.Errorf("%d of %d sends verified with the same dedup id (last error: %v)", verified, sends, verr)
			}
		})
	}
}

// A handler the timeout cut off goes on and writes late: the replay waits
// for it before counting, so its write is credited to the send that caused
// it and the next send is seen to write nothing.
func TestReplayCreditsALateWriteToItsSend(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	pol := policytest.Lookup(t, "stripe")
	pol.Timeout = policies.Duration(100 * time.Millisecond)
	var mu sync.Mutex
	writes, calls := 0, 0
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		calls++
		first := calls == 1
		mu.Unlock()
		if first {
			<-r.Context().Done() // the provider gave up; the handler goes on
		}
		mu.Lock()
		if writes == 0 { // dedups: only the first call writes
			writes++
		}
		mu.Unlock()
	})
	effects := func(context.Context) (map[string]int, error) {
		mu.Lock()
		defer mu.Unlock()
		return map[string]int{"evt_1umcRD4VXxBs7KPBXpxgOSjw": writes}, nil
	}
	res, err := simulator.Replay(context.Background(), simulator.ReplayConfig{
		Capture: mustCapture(t, "stripe.http"), Policy: pol, Handler: h, Times: 3, Effects: effects,
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.Sends[0].Status != 0 || res.Sends[0].Writes != 1 || res.Sends[1].Writes != 0 || res.Sends[2].Writes != 0 {
		t.Errorf("sends (status, writes): (%d, %d) (%d, %d) (%d, %d); want the cut-off send 1 to have written once and the others not",
			res.Sends[0].Status, res.Sends[0].Writes, res.Sends[1].Status, res.Sends[1].Writes, res.Sends[2].Status, res.Sends[2].Writes)
	}
	if res.Verdict() != simulator.VerdictIdempotent || res.HandlersRunning != 0 {
		t.Errorf("verdict %s with %d handler calls running, want idempotent with none: %s", res.Verdict(), res.HandlersRunning, report.ReplayVerdictLine(res, nil))
	}
}

// The same against a server: it goes on after its client hung up, and the
// replay gives it a timeout before reading the oracle, then reads until two
// reads agree, so the late write is credited to send 1.
func TestReplayCreditsAServersLateWriteToItsSend(t *testing.T) {
	pol := policytest.Lookup(t, "stripe")
	pol.Timeout = policies.Duration(100 * time.Millisecond)
	var mu sync.Mutex
	writes, calls := 0, 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		mu.Lock()
		calls++
		first := calls == 1
		mu.Unlock()
		if first {
			<-r.Context().Done() // the client hung up; the server goes on
		}
		mu.Lock()
		if writes == 0 {
			writes++
		}
		mu.Unlock()
	}))
	defer srv.Close()
	effects := func(context.Context) (map[string]int, error) {
		mu.Lock()
		defer mu.Unlock()
		return map[string]int{"evt_1umcRD4VXxBs7KPBXpxgOSjw": writes}, nil
	}
	res, err := simulator.Replay(context.Background(), simulator.ReplayConfig{
		Capture: mustCapture(t, "stripe.http"), Policy: pol, URL: srv.URL + "/webhooks/stripe", Times: 2, Effects: effects,
		SettleLimit: 400 * time.Millisecond,
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.Sends[0].Status != 0 || res.Sends[0].Writes != 1 || res.Sends[1].Writes != 0 {
		t.Errorf("sends (status, writes): (%d, %d) (%d, %d); want the cut-off send 1 to have written once and send 2 not",
			res.Sends[0].Status, res.Sends[0].Writes, res.Sends[1].Status, res.Sends[1].Writes)
	}
	if res.Verdict() != simulator.VerdictIdempotent || res.EffectsUnsettled {
		t.Errorf("verdict %s (unsettled %v), want idempotent and settled: %s", res.Verdict(), res.EffectsUnsettled, report.ReplayVerdictLine(res, nil))
	}
}

// A server that answers first and writes later (from a queue) writes after
// the last send's answer: the replay reads the oracle until the write it
// accepted is reported and nothing changes for the quiet period, so the
// late writes count.
func TestReplayWaitsForAnAckFirstHandler(t *testing.T) {
	var mu sync.Mutex
	writes := 0
	var pending sync.WaitGroup
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		pending.Add(1)
		time.AfterFunc(100*time.Millisecond, func() { // the worker, later
			defer pending.Done()
			mu.Lock()
			writes++
			mu.Unlock()
		})
	}))
	defer func() { pending.Wait(); srv.Close() }()
	effects := func(context.Context) (map[string]int, error) {
		mu.Lock()
		defer mu.Unlock()
		return map[string]int{"evt_1umcRD4VXxBs7KPBXpxgOSjw": writes}, nil
	}
	res, err := simulator.Replay(context.Background(), simulator.ReplayConfig{
		Capture: mustCapture(t, "stripe.http"), URL: srv.URL + "/webhooks/stripe", Times: 3, Effects: effects,
		SettleLimit: time.Second, SettleQuiet: 300 * time.Millisecond,
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.Writes() != 3 || res.Verdict() != simulator.VerdictNotIdempotent || res.EffectsUnsettled {
		t.Errorf("%d writes, verdict %s (unsettled %v); want every send's late write counted, not idempotent: %s",
			res.Writes(), res.Verdict(), res.EffectsUnsettled, report.ReplayVerdictLine(res, nil))
	}
	if res.SettleS < 0.3 || !strings.Contains(report.ReplayVerdictLine(res, nil), "effects settled") {
		t.Errorf("the oracle was read for %gs after the last send, want at least the quiet period, and said: %s", res.SettleS, report.ReplayVerdictLine(res, nil))
	}
}
