package simulator

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/retrysim/retrysim/policies"
	"github.com/retrysim/retrysim/policies/policytest"
	"github.com/retrysim/retrysim/scenarios"
	"github.com/retrysim/retrysim/scenarios/scenariotest"
)

// The same seed gives the same virtual timeline and the same fault decisions
// whatever the concurrency.
func TestTimelineDoesNotDependOnConcurrency(t *testing.T) {
	srv := ok200(t)
	type key struct {
		event   string
		n       int
		at      time.Time
		outcome Outcome
		fault   string
		reached bool
	}
	run := func(concurrency int) []key {
		recs, _ := collect(t, Config{
			Policy: policytest.Lookup(t, "stripe"), Scenario: scenariotest.Lookup(t, "flaky-network"),
			URL: srv.URL, Events: 60, Seed: 7, RunID: "test", Concurrency: concurrency,
		})
		var out []key
		for _, r := range attempts(recs) {
			out = append(out, key{r.EventID, r.Attempt, r.Time, r.Outcome, r.Fault, r.Reached})
		}
		return out
	}
	one, many := run(1), run(32)
	if len(one) != len(many) {
		t.Fatalf("concurrency 1 made %d attempts, 32 made %d", len(one), len(many))
	}
	faults := 0
	for i := range one {
		if one[i] != many[i] {
			t.Fatalf("attempt %d differs:\n  concurrency 1:  %+v\n  concurrency 32: %+v", i, one[i], many[i])
		}
		if one[i].fault != "" {
			faults++
		}
	}
	if faults == 0 || len(one) <= 60 {
		t.Fatalf("flaky-network injected %d faults over %d attempts; the test needs retries to mean anything", faults, len(one))
	}
	// Another seed gives another timeline.
	recs, _ := collect(t, Config{Policy: policytest.Lookup(t, "stripe"), Scenario: scenariotest.Lookup(t, "flaky-network"), URL: srv.URL, Events: 60, Seed: 8})
	other := attempts(recs)
	if len(other) == len(one) && other[0].EventID == one[0].event && other[0].Time.Equal(one[0].at) {
		t.Errorf("seed 8 gave the same timeline as seed 7")
	}
}

// With nothing listening, every Stripe event gets all 16 attempts, spread
// over the policy's 3 days.
func TestUnreachableHandlerExhaustsStripeSchedule(t *testing.T) {
	p := policytest.Lookup(t, "stripe")
	recs, res := collect(t, Config{Policy: p, URL: "http://127.0.0.1:1/", Events: 5})
	perEvent := map[string][]Record{}
	for _, r := range attempts(recs) {
		if r.Outcome != ConnectionFailed || r.Reached {
			t.Fatalf("attempt %d of %s: outcome %s reached=%v, want connection_failed, not reached", r.Attempt, r.EventID, r.Outcome, r.Reached)
		}
		perEvent[r.EventID] = append(perEvent[r.EventID], r)
	}
	if len(perEvent) != 5 {
		t.Fatalf("got attempts for %d events, want 5", len(perEvent))
	}
	for id, as := range perEvent {
		if len(as) != p.MaxAttempts() {
			t.Errorf("%s: %d attempts, want %d", id, len(as), p.MaxAttempts())
		}
		last := as[len(as)-1]
		if got := time.Duration(last.At.Seconds() * float64(time.Second)); got.Round(time.Second) != p.Window().Round(time.Second) {
			t.Errorf("%s: last attempt at +%s, want +%s", id, got, p.Window())
		}
		for i, a := range as {
			if want := p.Offset(i + 1).Seconds(); a.At.Seconds() < want-0.001 || a.At.Seconds() > want+0.001 {
				t.Errorf("%s attempt %d at +%.3fs, want +%.3fs", id, a.Attempt, a.At.Seconds(), want)
			}
		}
	}
	if res.Lost != 5 || res.Delivered != 0 {
		t.Errorf("lost %d delivered %d, want 5 lost", res.Lost, res.Delivered)
	}
	fates := 0
	for _, r := range recs {
		if r.Kind == KindEvent {
			fates++
			if r.Fate != FateExhausted || r.Attempts != p.MaxAttempts() {
				t.Errorf("event %s: fate %s after %d attempts, want exhausted after %d", r.EventID, r.Fate, r.Attempts, p.MaxAttempts())
			}
		}
	}
	if fates != 5 {
		t.Errorf("%d event records, want 5", fates)
	}
}

// Each way a handler can answer is classified as the provider would.
func TestOutcomeClassification(t *testing.T) {
	const timeout = 300 * time.Millisecond
	release := make(chan struct{})
	t.Cleanup(func() { close(release) })
	tests := []struct {
		name          string
		handler       http.HandlerFunc
		outcome       Outcome
		status        int
		handlerStatus int
		reached       bool
	}{
		{"answers 200", func(w http.ResponseWriter, r *http.Request) {}, Delivered, 200, 200, true},
		{"answers 204", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(204) }, Delivered, 204, 204, true},
		{"answers 500", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(500) }, HTTPError, 500, 500, true},
		{"answers 404", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(404) }, HTTPError, 404, 404, true},
		{"redirects to a trailing slash", func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, r.URL.Path+"/", http.StatusMovedPermanently)
		}, Redirect, 301, 301, true},
		{"hangs", func(w http.ResponseWriter, r *http.Request) {
			io.Copy(io.Discard, r.Body) // so the server notices the provider hanging up
			select {
			case <-release:
			case <-r.Context().Done():
			}
		}, Timeout, 0, 0, true},
		{"answers after the timeout", func(w http.ResponseWriter, r *http.Request) {
			io.Copy(io.Discard, r.Body)
			select {
			case <-release:
			case <-r.Context().Done():
			case <-time.After(2 * timeout):
			}
			w.WriteHeader(200)
		}, Timeout, 0, 0, true},
		{"closes the connection", func(w http.ResponseWriter, r *http.Request) {
			conn, _, err := w.(http.Hijacker).Hijack()
			if err == nil {
				conn.Close()
			}
		}, ConnectionFailed, 0, 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(tt.handler)
			defer srv.Close()
			recs, _ := collect(t, Config{Policy: shortPolicy(t, timeout), URL: srv.URL + "/hook", Events: 1})
			a := attempts(recs)[0]
			if a.Outcome != tt.outcome || a.Status != tt.status || a.HandlerStatus != tt.handlerStatus || a.Reached != tt.reached {
				t.Errorf("got outcome %s status %d handler %d reached %v (%s); want %s %d %d %v",
					a.Outcome, a.Status, a.HandlerStatus, a.Reached, a.Error, tt.outcome, tt.status, tt.handlerStatus, tt.reached)
			}
		})
	}
	t.Run("nothing listening", func(t *testing.T) {
		recs, _ := collect(t, Config{Policy: shortPolicy(t, timeout), URL: "http://127.0.0.1:1/", Events: 1})
		if a := attempts(recs)[0]; a.Outcome != ConnectionFailed || a.Reached {
			t.Errorf("got %s reached=%v, want connection_failed not reached", a.Outcome, a.Reached)
		}
	})
}

// Injected faults: a lost response reached the handler, which answered; a
// dropped request did not; latency past the timeout is a timeout after the
// work was done.
func TestInjectedFaults(t *testing.T) {
	var arrivals int
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { arrivals++ }))
	defer srv.Close()
	tests := []struct {
		yaml    string
		outcome Outcome
		handler int
		reached bool
	}{
		{"{type: lost-response}", LostResponse, 200, true},
		{"{type: drop-request}", ConnectionFailed, 0, false},
		{"{type: latency, over_timeout: 1s}", Timeout, 200, true},
		{"{type: latency, latency: 1s}", Delivered, 200, true},
	}
	for _, tt := range tests {
		t.Run(tt.yaml, func(t *testing.T) {
			sc, err := scenarios.Decode("test.yaml", []byte("name: t\nfaults: ["+tt.yaml+"]\n"))
			if err != nil {
				t.Fatal(err)
			}
			before := arrivals
			recs, _ := collect(t, Config{Policy: policytest.Lookup(t, "stripe"), Scenario: sc, URL: srv.URL, Events: 1, Concurrency: 1})
			a := attempts(recs)[0]
			if a.Outcome != tt.outcome || a.HandlerStatus != tt.handler || a.Reached != tt.reached {
				t.Errorf("got %s handler %d reached %v; want %s %d %v", a.Outcome, a.HandlerStatus, a.Reached, tt.outcome, tt.handler, tt.reached)
			}
			if got := arrivals - before; (got > 0) != tt.reached {
				t.Errorf("handler logged %d arrivals for the first attempts, reached=%v", got, tt.reached)
			}
		})
	}
}

// Shopify disables the endpoint after 19 consecutive failures: nothing is
// sent after that moment, and every event not yet delivered is lost.
func TestEndpointDisabledAfterConsecutiveFailures(t *testing.T) {
	p := policytest.Lookup(t, "shopify")
	recs, res := collect(t, Config{Policy: p, URL: "http://127.0.0.1:1/", Events: 40, Over: 30 * time.Minute, Concurrency: 32})
	if res.DisabledAt.IsZero() {
		t.Fatal("endpoint never disabled")
	}
	as := attempts(recs)
	if len(as) != p.Disable.ConsecutiveFailures {
		t.Errorf("%d attempts, want exactly %d (the disabling failure is the last one sent)", len(as), p.Disable.ConsecutiveFailures)
	}
	for _, a := range as {
		if a.Time.After(res.DisabledAt) {
			t.Errorf("attempt %d of %s sent at %s, after the endpoint was disabled at %s", a.Attempt, a.EventID, a.Time, res.DisabledAt)
		}
	}
	if res.Lost != 40 {
		t.Errorf("lost %d events, want all 40", res.Lost)
	}
	var disabled int
	for _, r := range recs {
		if r.Kind == KindEvent && r.Fate == FateDisabled {
			disabled++
		}
	}
	if disabled != 40 {
		t.Errorf("%d events ended disabled, want 40", disabled)
	}
	if end := recs[len(recs)-1]; end.Kind != KindEnd || end.DisabledAt == nil || !end.DisabledAt.Equal(res.DisabledAt) {
		t.Errorf("last record %+v does not close the run with the disable time", end)
	}
}

// A cancelled context stops new attempts (the ones in flight finish and are
// recorded); the run ends with an interrupted record and the events in
// flight are marked interrupted.
func TestInterruptedRun(t *testing.T) {
	for _, concurrency := range []int{1, 4} {
		t.Run(fmt.Sprintf("concurrency %d", concurrency), func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var mu sync.Mutex
			arrivals, late := 0, 0
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
				mu.Lock()
				arrivals++
				switch {
				case arrivals == 12:
					cancel() // as a Ctrl-C would, while this attempt is in flight
				case arrivals > 12:
					late++
				}
				mu.Unlock()
				w.WriteHeader(http.StatusInternalServerError)
			}))
			defer srv.Close()
			var recs []Record
			cfg := Config{
				Policy: policytest.Lookup(t, "stripe"), URL: srv.URL, Events: 10, Concurrency: concurrency,
				Sink: func(r *Record) error { recs = append(recs, *r); return nil },
			}
			res, err := Run(ctx, cfg)
			if err != nil {
				t.Fatal(err)
			}
			mu.Lock()
			defer mu.Unlock()
			// At concurrency c, up to c-1 other attempts were in flight
			// when the 12th arrived; none may start after.
			if late > concurrency-1 {
				t.Errorf("%d attempts reached the handler after the run was cancelled", late)
			}
			if !res.Interrupted || res.Attempts != arrivals {
				t.Errorf("interrupted=%v after %d attempts recorded, %d sent; want true, and every attempt sent recorded", res.Interrupted, res.Attempts, arrivals)
			}
			end := recs[len(recs)-1]
			if end.Kind != KindEnd || !end.Interrupted {
				t.Errorf("last record %+v, want an interrupted end record", end)
			}
			interrupted := 0
			for _, r := range recs {
				if r.Kind == KindEvent && r.Fate == FateInterrupted {
					interrupted++
					if r.Attempts == 0 {
						t.Errorf("event %s ended interrupted with no attempt made", r.EventID)
					}
				}
				if (r.Kind == KindEvent || r.Kind == KindEnd) && (r.Time.Before(DefaultStart()) || r.At.Seconds() < 0) {
					t.Errorf("%s record of %q at %s (%+gs): before the run started", r.Kind, r.EventID, r.Time, r.At.Seconds())
				}
			}
			if interrupted == 0 {
				t.Error("no event marked interrupted")
			}
		})
	}
}

// Every attempt carries the same dedup id and payload, and the virtual time
// header, through an in-process handler.
func TestInProcessHandlerSeesRetriesOfOneEvent(t *testing.T) {
	type seen struct {
		id, vt string
		body   string
	}
	var got []seen
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body := make([]byte, r.ContentLength)
		r.Body.Read(body)
		id, _ := policies.Wire(mustWire(t, "github")).DedupID(r.Header, body)
		got = append(got, seen{id, r.Header.Get(VirtualTimeHeader), string(body)})
		w.WriteHeader(503)
	})
	collect(t, Config{Policy: policytest.Lookup(t, "github"), Handler: h, Events: 1})
	if len(got) != 8 {
		t.Fatalf("handler saw %d attempts, want github's 8", len(got))
	}
	for i, s := range got[1:] {
		if s.id != got[0].id || s.body != got[0].body {
			t.Errorf("attempt %d: id %q body differs=%v from the first attempt's %q", i+2, s.id, s.body != got[0].body, got[0].id)
		}
		prev, _ := time.Parse(time.RFC3339Nano, got[i].vt)
		cur, _ := time.Parse(time.RFC3339Nano, s.vt)
		if !cur.After(prev) {
			t.Errorf("attempt %d virtual time %s not after %s", i+2, s.vt, got[i].vt)
		}
	}
}

// With the real clock, attempts are sent when they are due, not early.
func TestRealtimeSendsAttemptsWhenDue(t *testing.T) {
	var mu sync.Mutex
	var early []string
	arrivals := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		due, err := time.Parse(time.RFC3339Nano, r.Header.Get(VirtualTimeHeader))
		mu.Lock()
		defer mu.Unlock()
		arrivals++
		if err != nil || time.Now().Before(due.Add(-5*time.Millisecond)) {
			early = append(early, fmt.Sprintf("due %s, sent %s early", due.Format(time.StampMilli), time.Until(due)))
		}
		w.WriteHeader(500)
	}))
	defer srv.Close()
	p := policies.Policy{
		Name: "fast", Provider: "github", Timeout: policies.Duration(time.Second),
		Schedule: policies.ScheduleSpec{Delays: []policies.Duration{policies.Duration(300 * time.Millisecond)}},
	}
	if err := p.Init(); err != nil {
		t.Fatal(err)
	}
	// Three events whose first attempts fall within one 300ms lookahead window.
	collect(t, Config{Policy: p, URL: srv.URL, Events: 3, Realtime: true, Over: 200 * time.Millisecond})
	if arrivals != 6 {
		t.Errorf("handler saw %d attempts, want 6", arrivals)
	}
	if len(early) > 0 {
		t.Errorf("attempts sent before they were due: %v", early)
	}
}

// Every record, not only the attempts, is the same at any concurrency: the
// events' fates and the end of the run included, with a disable rule at work.
func TestWholeStreamDoesNotDependOnConcurrency(t *testing.T) {
	srv := ok200(t)
	type key struct {
		kind, event, fate, outcome string
		n                          int
		at                         time.Time
		disabledAt                 string
	}
	run := func(concurrency int) []key {
		recs, _ := collect(t, Config{
			Policy: policytest.Lookup(t, "shopify"), Scenario: scenariotest.Lookup(t, "outage"),
			URL: srv.URL, Events: 300, Seed: 1, RunID: "test", Concurrency: concurrency,
		})
		var out []key
		for _, r := range recs {
			k := key{kind: r.Kind, event: r.EventID, fate: r.Fate, outcome: string(r.Outcome), n: r.n(), at: r.Time}
			if r.DisabledAt != nil {
				k.disabledAt = r.DisabledAt.String()
			}
			out = append(out, k)
		}
		return out
	}
	one, many := run(1), run(64)
	if len(one) != len(many) {
		t.Fatalf("concurrency 1 gave %d records, 64 gave %d", len(one), len(many))
	}
	for i := range one {
		if one[i] != many[i] {
			t.Fatalf("record %d differs:\n  concurrency 1:  %+v\n  concurrency 64: %+v", i, one[i], many[i])
		}
	}
	if end := one[len(one)-1]; end.kind != KindEnd || end.disabledAt == "" {
		t.Fatalf("the run should end disabled, got %+v", end)
	}
}
