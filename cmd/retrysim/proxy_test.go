package main

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/retrysim/retrysim/policies"
	"github.com/retrysim/retrysim/simulator"
	"github.com/retrysim/retrysim/simulator/demo"
	"github.com/retrysim/retrysim/simulator/interrupt"
)

// proxyProc is retrysim proxy running as its own process, as a user runs
// it beside stripe listen or gh webhook forward.
type proxyProc struct {
	cmd    *exec.Cmd
	url    string // where deliveries go in
	stderr <-chan string
	stdout *bytes.Buffer
}

func startProxy(t *testing.T, bin string, args ...string) *proxyProc {
	t.Helper()
	cmd, stderr, stdout := startBinary(t, bin, append([]string{"proxy", "--listen", "127.0.0.1:0"}, args...))
	line := waitForLine(t, stderr, "listening on http://")
	addr, _, _ := strings.Cut(strings.TrimPrefix(line[strings.Index(line, "http://"):], "http://"), ",")
	return &proxyProc{cmd: cmd, url: "http://" + addr, stderr: stderr, stdout: stdout}
}

// deliver posts a delivery of provider's event seq to the proxy, signed
// with secret the way the provider's own forwarding tool posts it; how
// tweaks the signing ("forged", "stale", "unsigned"). It returns the
// delivery's dedup id and the status the proxy answered.
func (p *proxyProc) deliver(t *testing.T, provider, secret string, seq int, how string) (string, int) {
	t.Helper()
	w, _ := policies.WireFor(provider)
	return p.deliverType(t, provider, secret, seq, how, w.DefaultEventType())
}

// deliverType is deliver for an event of type typ.
func (p *proxyProc) deliverType(t *testing.T, provider, secret string, seq int, how, typ string) (string, int) {
	t.Helper()
	w, _ := policies.WireFor(provider)
	ev := policies.Event{Seq: seq, Seed: uint64(5000 + seq), Type: typ, Created: time.Now()}
	w.NewEvent(&ev)
	body, ctype := w.Body(ev)
	url := p.url + "/webhooks/" + provider
	h := http.Header{"Content-Type": {ctype}}
	signedAt, key := time.Now(), secret
	switch how {
	case "stale":
		signedAt = signedAt.Add(-time.Hour)
	case "forged":
		key = secret + "-not-it"
	}
	w.Header(h, policies.Delivery{Event: ev, N: 1, Body: body, URL: url, Secret: key, SignedAt: signedAt})
	if how == "unsigned" {
		if s, ok := policies.SchemeOf(w); ok {
			for _, k := range s.Headers {
				h.Del(k)
			}
		}
	}
	id, _ := w.DedupID(h, body)
	req, _ := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
	req.Header = h
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return id, resp.StatusCode
}

// wait waits for the proxy to end and returns its exit code and stderr.
func (p *proxyProc) wait(t *testing.T) (int, string) {
	t.Helper()
	done := make(chan struct{})
	var code int
	var errText string
	go func() {
		code, errText = exitCode(t, p.cmd, p.stderr)
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(2 * time.Minute):
		t.Fatal("the proxy did not end")
	}
	return code, errText
}

// firstLost is a scenario whose every first answer is lost after the
// handler did the work: every delivery comes again.
func firstLost(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "first-lost.yaml")
	if err := os.WriteFile(path, []byte("name: first-lost\nfaults:\n  - type: lost-response\n    attempts: [1]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// Real deliveries through the proxy get the provider's retries: a naive
// handler behind it processes each twice and fails the duplicate-effects
// gate; an idempotent one processes each once and passes it. Stripe,
// GitHub, Shopify and Slack, as their forwarding tools post them.
func TestProxyGivesRealDeliveriesTheirRetries(t *testing.T) {
	t.Parallel()
	bin := buildBinary(t)
	scenario := firstLost(t)
	for _, provider := range []string{"stripe", "github", "shopify", "slack"} {
		for _, tc := range []struct {
			mode    demo.Mode
			code    int
			verdict string
		}{
			{demo.Naive, exitGate, "NOT IDEMPOTENT"},
			{demo.Idempotent, 0, "✓ IDEMPOTENT"},
		} {
			t.Run(provider+"/"+string(tc.mode), func(t *testing.T) {
				t.Parallel()
				secret := policies.GenerateSecret(provider, 3)
				srv, err := startDemo(tc.mode, provider, secret)
				if err != nil {
					t.Fatal(err)
				}
				defer srv.close()
				effects := strings.TrimSuffix(srv.URL, demo.WebhookPath+provider) + demo.EffectsPath
				p := startProxy(t, bin, "--provider", provider, "--forward-to", srv.URL, "--secret", provider+"="+secret,
					"--scenario", scenario, "--effects-url", effects, "--events", "3", "--fail-on", "duplicate-effects", "--no-timeline",
					// The naive and idempotent modes write their effects before
					// they answer: a short settle window sees them all.
					"--settle", "200ms")
				var ids []string
				for i := range 3 {
					id, status := p.deliver(t, provider, secret, i, "")
					if status != http.StatusOK {
						t.Fatalf("delivery %d answered %d upstream, want the handler's 200", i, status)
					}
					ids = append(ids, id)
				}
				code, errText := p.wait(t)
				if code != tc.code {
					t.Fatalf("exit %d, want %d; stderr:\n%s\nstdout:\n%s", code, tc.code, errText, p.stdout)
				}
				// The report wraps at 120 columns: compare its words.
				words := strings.Join(strings.Fields(p.stdout.String()), " ")
				if !strings.Contains(words, tc.verdict) || !strings.Contains(words, "3 real deliveries") {
					t.Errorf("report does not say %q about 3 real deliveries:\n%s", tc.verdict, p.stdout)
				}
				got := srv.Handler.Effects
				counts, err := got(t.Context())
				if err != nil {
					t.Fatal(err)
				}
				for _, id := range ids {
					want := 2
					if tc.mode == demo.Idempotent {
						want = 1
					}
					if counts[id] != want {
						t.Errorf("%s processed %d times, want %d (the first answer was lost, so it came again)", id, counts[id], want)
					}
					if !strings.Contains(errText, id) {
						t.Errorf("no line for %s as its schedule ended:\n%s", id, errText)
					}
				}
			})
		}
	}
}

// A forged, stale or unsigned delivery is answered 400 and never reaches
// the handler; the report's stderr counts them.
func TestProxyRefusesBadDeliveries(t *testing.T) {
	t.Parallel()
	bin := buildBinary(t)
	var reached atomic.Int32
	h := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { reached.Add(1) }))
	defer h.Close()
	secret := policies.GenerateSecret("stripe", 4)
	p := startProxy(t, bin, "--provider", "stripe", "--forward-to", h.URL+"/hook", "--secret", "stripe="+secret,
		"--scenario", "happy", "--events", "1")
	for _, how := range []string{"forged", "stale", "unsigned"} {
		if _, status := p.deliver(t, "stripe", secret, 0, how); status != http.StatusBadRequest {
			t.Errorf("%s delivery answered %d, want 400", how, status)
		}
	}
	if n := reached.Load(); n != 0 {
		t.Fatalf("%d bad deliveries reached the handler", n)
	}
	if _, status := p.deliver(t, "stripe", secret, 1, ""); status != http.StatusOK {
		t.Errorf("a good delivery answered %d", status)
	}
	code, errText := p.wait(t)
	if code != 0 {
		t.Fatalf("exit %d; stderr:\n%s", code, errText)
	}
	if !strings.Contains(errText, "refused 1 forged, 1 stale, 1 unsigned (answered 400, never forwarded)") {
		t.Errorf("stderr does not count the refused deliveries:\n%s", errText)
	}
	if n := reached.Load(); n != 1 {
		t.Errorf("the handler was reached %d times, want once for the good delivery", n)
	}
}

// What --captures saves is a delivery retrysim replay reads and sends.
func TestProxyCapturesReplay(t *testing.T) {
	t.Parallel()
	bin := buildBinary(t)
	secret := policies.GenerateSecret("github", 5)
	srv, err := startDemo(demo.Idempotent, "github", secret)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.close()
	dir := t.TempDir()
	p := startProxy(t, bin, "--provider", "github", "--forward-to", srv.URL, "--secret", "github="+secret,
		"--scenario", "happy", "--events", "1", "--captures", dir)
	id, _ := p.deliver(t, "github", secret, 0, "")
	if code, errText := p.wait(t); code != 0 {
		t.Fatalf("proxy exit %d; stderr:\n%s", code, errText)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.http"))
	if len(files) != 1 || !strings.Contains(files[0], id) {
		t.Fatalf("captures %v, want one named for %s", files, id)
	}
	out, err := exec.Command(bin, "replay", "--request", files[0], "--url", srv.URL, "--secret", "github="+secret, "--times", "3", "--format", "json").Output()
	if err != nil {
		t.Fatalf("replay: %v\n%s", err, out)
	}
	var res struct {
		DedupID string `json:"dedup_id"`
		Sends   []struct {
			Status int `json:"status"`
		} `json:"sends"`
	}
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if res.DedupID != id || len(res.Sends) != 3 || res.Sends[0].Status != http.StatusOK {
		t.Errorf("replay of the capture: %s", out)
	}
}

// A second Ctrl-C while a delivery's attempt is in flight (the first ends
// the intake): the attempt finishes, the event is marked interrupted, and
// the results stream is complete, ending with its end record.
func TestProxyInterruptLeavesCompleteResults(t *testing.T) {
	t.Parallel()
	bin := buildBinary(t)
	g := newGate(t)
	results := filepath.Join(t.TempDir(), "results.jsonl")
	secret := policies.GenerateSecret("stripe", 6)
	p := startProxy(t, bin, "--provider", "stripe", "--forward-to", g.url, "--secret", "stripe="+secret,
		"--scenario", "happy", "--ack", "--results", results)
	if _, status := p.deliver(t, "stripe", secret, 0, ""); status != http.StatusOK {
		t.Fatalf("with --ack the delivery answered %d, want 200 at once", status)
	}
	waitFor(t, g.arrived, "the first attempt to reach the handler")
	if err := p.cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	waitForLine(t, p.stderr, "retrysim: ending: no new delivery is taken")
	stopPressing := pressUntil(p.cmd)
	waitForLine(t, p.stderr, "retrysim: interrupted")
	stopPressing()
	g.open()
	code, errText := p.wait(t)
	if code != exitInterrupted {
		t.Fatalf("exit %d, want %d; stderr:\n%s", code, exitInterrupted, errText)
	}
	if !strings.Contains(p.stdout.String(), "INTERRUPTED") {
		t.Errorf("report not marked INTERRUPTED:\n%s", p.stdout)
	}
	data, err := os.ReadFile(results)
	if err != nil {
		t.Fatal(err)
	}
	recs := strings.Split(strings.TrimSpace(string(data)), "\n")
	var last simulator.Record
	if err := json.Unmarshal([]byte(recs[len(recs)-1]), &last); err != nil || last.Kind != simulator.KindEnd || !last.Interrupted {
		t.Fatalf("last record %s, want an end record marked interrupted", recs[len(recs)-1])
	}
	if !strings.Contains(string(data), `"kind":"attempt"`) {
		t.Errorf("the attempt in flight is missing from the results:\n%s", data)
	}
}

// TestProxyNamesForwardTo checks that problems with the handler's URL are
// blamed on --forward-to, the flag proxy takes it from, and never on run's
// --url: a remote address, and a connection override Twilio cannot take.
func TestProxyNamesForwardTo(t *testing.T) {
	for _, tc := range []struct{ provider, url, want string }{
		{"stripe", "http://192.0.2.1/webhooks/stripe", "retrysim: --forward-to: target is not a loopback address: 192.0.2.1"},
		{"twilio", "http://127.0.0.1:9/sms#zz=1", `retrysim: --forward-to: twilio: bad connection override: unknown key "zz"`},
	} {
		var out, errb bytes.Buffer
		code := run([]string{"proxy", "--provider", tc.provider, "--secret", tc.provider + "=whsec_" + strings.Repeat("k", 32),
			"--forward-to", tc.url}, strings.NewReader(""), &out, &errb)
		if code != exitBadInput {
			t.Fatalf("%s: exit %d, want %d; stderr:\n%s", tc.url, code, exitBadInput, errb.String())
		}
		if msg := errb.String(); !strings.HasPrefix(msg, tc.want) || strings.Contains(msg, "--url") {
			t.Errorf("%s: stderr\n%s\nwant it to start %q and not name --url", tc.url, msg, tc.want)
		}
	}
}

// proxy cannot restart a handler it did not start: a scenario with restarts
// is refused with that reason, not with advice to pass a flag proxy lacks.
func TestProxyRefusesRestarts(t *testing.T) {
	var out, errb bytes.Buffer
	code := run([]string{"proxy", "--provider", "stripe", "--secret", "stripe=whsec_" + strings.Repeat("k", 32),
		"--forward-to", "http://127.0.0.1:9/webhooks/stripe", "--scenario", "crash-restart"}, strings.NewReader(""), &out, &errb)
	if code != exitBadInput {
		t.Fatalf("exit %d, want %d; stderr:\n%s", code, exitBadInput, errb.String())
	}
	msg := errb.String()
	if !strings.Contains(msg, "proxy forwards to a handler it did not start") || strings.Contains(msg, "add --exec") {
		t.Errorf("stderr\n%s\nwant it to say proxy cannot restart the handler, without advising --exec on proxy", msg)
	}
}

// pressUntil sends cmd SIGINT again and again, as a person pressing Ctrl-C
// until something happens, until the function returned is called: a
// signal within interrupt.SameInterrupt of the one before is the same one.
func pressUntil(cmd *exec.Cmd) (stop func()) {
	done := make(chan struct{})
	tick := time.NewTicker(interrupt.SameInterrupt / 4)
	go func() {
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
				cmd.Process.Signal(syscall.SIGINT)
			}
		}
	}()
	var once sync.Once
	return func() { once.Do(func() { close(done) }) }
}

// Ctrl-C is how the proxy is ended: the intake closes, the events taken in
// finish their schedules, the effects settle, and the gates decide the
// exit code (1 here: a naive handler processed the delivery twice). It is
// not an interruption.
func TestProxyCtrlCEndsCleanly(t *testing.T) {
	t.Parallel()
	bin := buildBinary(t)
	secret := policies.GenerateSecret("stripe", 11)
	srv, err := startDemo(demo.Naive, "stripe", secret)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.close()
	effects := strings.TrimSuffix(srv.URL, demo.WebhookPath+"stripe") + demo.EffectsPath
	results := filepath.Join(t.TempDir(), "results.jsonl")
	p := startProxy(t, bin, "--provider", "stripe", "--forward-to", srv.URL, "--secret", "stripe="+secret,
		"--scenario", firstLost(t), "--effects-url", effects, "--fail-on", "duplicate-effects", "--results", results)
	id, status := p.deliver(t, "stripe", secret, 0, "")
	if status != http.StatusOK {
		t.Fatalf("the delivery answered %d", status)
	}
	waitForLine(t, p.stderr, id) // its schedule has ended
	if err := p.cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	code, errText := p.wait(t)
	if code != exitGate {
		t.Fatalf("exit %d, want %d (the gate's); stderr:\n%s\nstdout:\n%s", code, exitGate, errText, p.stdout)
	}
	words := strings.Join(strings.Fields(p.stdout.String()), " ")
	if strings.Contains(words, "INTERRUPTED") || !strings.Contains(words, "NOT IDEMPOTENT") {
		t.Errorf("the report after Ctrl-C is not the whole one:\n%s", p.stdout)
	}
	recs := readResults(t, results)
	if end := recs[len(recs)-1]; end.Kind != simulator.KindEnd || end.Interrupted {
		t.Errorf("the results end with %+v, want a complete run's end record", end)
	}
}

// The report's header names the types of the real deliveries that came
// in, as their senders gave them, never the provider's default type: one
// type by name, several counted by type, the most first.
func TestProxyReportNamesTheTypesDelivered(t *testing.T) {
	t.Parallel()
	bin := buildBinary(t)
	h := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	t.Cleanup(h.Close) // after the parallel subtests
	for _, tc := range []struct {
		name   string
		types  []string
		header string
	}{
		{"one", []string{"invoice.paid"}, "1 real delivery of type invoice.paid"},
		{"several", []string{"customer.created", "invoice.paid", "invoice.paid"},
			"3 real deliveries of 2 types (2 invoice.paid, 1 customer.created)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			secret := policies.GenerateSecret("stripe", 12)
			p := startProxy(t, bin, "--provider", "stripe", "--forward-to", h.URL+"/webhooks/stripe", "--secret", "stripe="+secret,
				"--scenario", "happy", "--events", strconv.Itoa(len(tc.types)), "--no-timeline")
			for i, typ := range tc.types {
				if _, status := p.deliverType(t, "stripe", secret, i, "", typ); status != http.StatusOK {
					t.Fatalf("delivery %d answered %d", i, status)
				}
			}
			code, errText := p.wait(t)
			if code != 0 {
				t.Fatalf("exit %d; stderr:\n%s", code, errText)
			}
			if !strings.Contains(errText, " invoice.paid · 1 attempt") {
				t.Errorf("no progress line names invoice.paid:\n%s", errText)
			}
			words := strings.Join(strings.Fields(p.stdout.String()), " ")
			if !strings.Contains(words, tc.header) {
				t.Errorf("the report's header does not say %q:\n%s", tc.header, p.stdout)
			}
			if w, _ := policies.WireFor("stripe"); strings.Contains(words, w.DefaultEventType()) {
				t.Errorf("the report names the default type %s, which nothing delivered:\n%s", w.DefaultEventType(), p.stdout)
			}
		})
	}
}
