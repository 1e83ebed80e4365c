package simulator

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/retrysim/retrysim/policies/policytest"
	"github.com/retrysim/retrysim/scenarios/scenariotest"
)

// stream runs cfg and returns its records as JSON lines with the measured
// latencies (the one thing real time may change) left out. It fails if an
// attempt was sent after the endpoint was disabled: such an attempt is
// dropped from the records, but its request was real.
func stream(tb testing.TB, cfg Config) ([]string, *Result) {
	tb.Helper()
	var recs []Record
	cfg.Sink = func(r *Record) error { recs = append(recs, *r); return nil }
	if err := cfg.providerDefaults(); err != nil {
		tb.Fatal(err)
	}
	c, err := cfg.resolve()
	if err != nil {
		tb.Fatal(err)
	}
	e := newEngine(c)
	res, err := e.run(context.Background())
	e.release()
	if err != nil {
		tb.Fatal(err)
	}
	if e.sentAfterDisable > 0 {
		tb.Fatalf("concurrency %d: %d attempts were sent after the endpoint was disabled", c.Concurrency, e.sentAfterDisable)
	}
	out := make([]string, len(recs))
	for i, r := range recs {
		r.Latency, r.WallStart = 0, nil // measured on the wall clock
		b, err := json.Marshal(r)
		if err != nil {
			tb.Fatal(err)
		}
		out[i] = string(b)
	}
	return out, res
}

// sameStream fails unless two record streams are identical.
func sameStream(tb testing.TB, what string, want, got []string) {
	tb.Helper()
	if len(want) != len(got) {
		tb.Fatalf("%s: %d records, serial run %d", what, len(got), len(want))
	}
	for i := range want {
		if want[i] != got[i] {
			tb.Fatalf("%s: record %d differs from the serial run's\n  serial: %s\n  here:   %s", what, i, want[i], got[i])
		}
	}
}

// TestSameStreamUnderRandomLatency: against a handler whose real latency is
// random, answers in no fixed order, the same seed gives the same results
// stream at concurrency 1, 8 and 64: the reorder buffer, not the order
// answers come back in, decides what is recorded.
func TestSameStreamUnderRandomLatency(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(time.Duration(rand.IntN(3000)) * time.Microsecond) // real handler time, not virtual
	}))
	defer srv.Close()
	run := func(concurrency int) ([]string, *Result) {
		return stream(t, Config{
			Policy: policytest.Lookup(t, "stripe"), Scenario: scenariotest.Lookup(t, "flaky-network"),
			URL: srv.URL, Events: 150, Over: 10 * time.Minute, Seed: 3, RunID: "causal", Concurrency: concurrency,
		})
	}
	serial, res := run(1)
	if res.Attempts <= res.Events || res.Lost+res.Delivered != res.Events {
		t.Fatalf("%d attempts for %d events: the test needs retries to mean anything", res.Attempts, res.Events)
	}
	for _, c := range []int{8, 64} {
		got, _ := run(c)
		sameStream(t, "concurrency "+itoa(c), serial, got)
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// TestDisableMomentMatchesSerialRun: Shopify disables the endpoint after 19
// consecutive failures. However many attempts are in flight, the endpoint
// is disabled at the same moment as in a serial run, the same events are
// lost to it, and nothing is sent after it.
func TestDisableMomentMatchesSerialRun(t *testing.T) {
	srv := ok200(t)
	for _, tc := range []struct {
		policy, scenario string
		events           int
		over             time.Duration
	}{
		{"shopify", "outage", 300, time.Hour},
		{"shopify", "black-hole", 200, time.Hour},
		// Slack's failure-rate rule needs 1,000 attempts within an hour.
		{"slack", "black-hole", 400, 10 * time.Minute},
	} {
		t.Run(tc.policy+"/"+tc.scenario, func(t *testing.T) {
			run := func(concurrency int) ([]string, *Result) {
				return stream(t, Config{
					Policy: policytest.Lookup(t, tc.policy), Scenario: scenariotest.Lookup(t, tc.scenario),
					URL: srv.URL, Events: tc.events, Over: tc.over, Seed: 1, RunID: "causal", Concurrency: concurrency,
				})
			}
			serial, res := run(1)
			if res.DisabledAt.IsZero() || res.Lost == 0 {
				t.Fatalf("the serial run was not disabled (lost %d): the test needs a disable", res.Lost)
			}
			for _, c := range []int{4, 16, 64} {
				got, r := run(c)
				sameStream(t, "concurrency "+itoa(c), serial, got)
				if !r.DisabledAt.Equal(res.DisabledAt) || r.Lost != res.Lost || r.Attempts != res.Attempts {
					t.Fatalf("concurrency %d: disabled at %s, %d lost, %d attempts; serial: %s, %d, %d",
						c, r.DisabledAt, r.Lost, r.Attempts, res.DisabledAt, res.Lost, res.Attempts)
				}
			}
		})
	}
}

// holdUntil is a handler that keeps every request until want of them are
// inside at once (or a generous guard expires, so that a failing engine
// fails the test instead of hanging it), and notes the most it held.
type holdUntil struct {
	want     int
	mu       sync.Mutex
	inside   int
	most     int
	release  chan struct{}
	released bool
}

func newHoldUntil(want int) *holdUntil {
	return &holdUntil{want: want, release: make(chan struct{})}
}

func (h *holdUntil) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h.mu.Lock()
	h.inside++
	h.most = max(h.most, h.inside)
	if h.inside == h.want && !h.released {
		close(h.release)
		h.released = true
	}
	h.mu.Unlock()
	select {
	case <-h.release:
	case <-time.After(5 * time.Second): // only a broken engine waits this long
	}
	h.mu.Lock()
	h.inside--
	h.mu.Unlock()
}

// TestEventsDoNotWaitForEachOther: twenty GitHub events spread over an hour,
// against a handler that answers nothing until all twenty are inside it.
// With no coupling between them (GitHub has no disable rule, and an event
// about the same object as an earlier one waits only until that one has
// reached the handler) every event's first attempt goes out at once,
// however far apart in virtual time.
func TestEventsDoNotWaitForEachOther(t *testing.T) {
	h := newHoldUntil(20)
	_, res := collect(t, Config{Policy: policytest.Lookup(t, "github"), Scenario: scenariotest.Lookup(t, "happy"), Handler: h, Events: 20, Concurrency: 32})
	if h.most != 20 || res.Delivered != 20 {
		t.Fatalf("the handler held at most %d requests at once (delivered %d): events waited for each other", h.most, res.Delivered)
	}
}

// TestConcurrencyCapsRequestsInFlight: with --concurrency 5 the handler
// never has more than five requests at once, and does have five.
func TestConcurrencyCapsRequestsInFlight(t *testing.T) {
	h := newHoldUntil(5)
	_, res := collect(t, Config{Policy: policytest.Lookup(t, "github"), Scenario: scenariotest.Lookup(t, "happy"), Handler: h, Events: 20, Concurrency: 5})
	if h.most != 5 || res.Delivered != 20 {
		t.Fatalf("the handler held at most %d requests at once with concurrency 5 (delivered %d)", h.most, res.Delivered)
	}
}
