package simulator

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/retrysim/retrysim/policies"
)

// Running the engine in the tests: the policies, handlers and record filters
// they share.

// collect runs cfg and returns its records.
func collect(tb testing.TB, cfg Config) ([]Record, *Result) {
	tb.Helper()
	var recs []Record
	cfg.Sink = func(r *Record) error { recs = append(recs, *r); return nil }
	res, err := Run(context.Background(), cfg)
	if err != nil {
		tb.Fatal(err)
	}
	return recs, res
}

func attempts(recs []Record) []Record {
	var out []Record
	for _, r := range recs {
		if r.Kind == KindAttempt {
			out = append(out, r)
		}
	}
	return out
}

func ok200(tb testing.TB) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	tb.Cleanup(srv.Close)
	return srv
}

// shortPolicy is a hand-built policy with a short timeout, so that tests of
// timeouts are quick.
func shortPolicy(tb testing.TB, timeout time.Duration) policies.Policy {
	tb.Helper()
	p := policies.Policy{
		Name: "short", Provider: "stripe", Timeout: policies.Duration(timeout),
		Schedule: policies.ScheduleSpec{Delays: []policies.Duration{policies.Duration(time.Minute)}},
	}
	if err := p.Init(); err != nil {
		tb.Fatal(err)
	}
	return p
}

func mustWire(tb testing.TB, name string) policies.Wire {
	tb.Helper()
	w, ok := policies.WireFor(name)
	if !ok {
		tb.Fatalf("no wire %q", name)
	}
	return w
}

// runWith runs pol against an in-process handler and returns the records.
func runWith(t *testing.T, pol policies.Policy, h http.Handler, events int, over time.Duration, concurrency int) (*Result, []Record) {
	t.Helper()
	var recs []Record
	res, err := Run(context.Background(), Config{
		Policy: pol, Handler: h, Events: events, Over: over, Seed: 3, RunID: "test", Concurrency: concurrency, Secret: "s",
		Sink: func(r *Record) error { recs = append(recs, *r); return nil },
	})
	if err != nil {
		t.Fatal(err)
	}
	return res, recs
}

func custom(t *testing.T, doc, name string) policies.Policy {
	t.Helper()
	cat, err := policies.Default().ExtendYAML("test.yaml", []byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	p, err := cat.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func respond(status int, header ...string) http.HandlerFunc {
	return func(w http.ResponseWriter, _ *http.Request) {
		for i := 0; i+1 < len(header); i += 2 {
			w.Header().Set(header[i], header[i+1])
		}
		w.WriteHeader(status)
	}
}

func fates(recs []Record) map[string]int {
	out := map[string]int{}
	for _, r := range recs {
		if r.Kind == KindEvent {
			out[r.Fate]++
		}
	}
	return out
}
