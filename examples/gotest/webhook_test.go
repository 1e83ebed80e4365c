package gotest_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/retrysim/retrysim/policies"
	"github.com/retrysim/retrysim/report"
	"github.com/retrysim/retrysim/scenarios"
	"github.com/retrysim/retrysim/simulator"
	"github.com/retrysim/retrysim/simulator/demo"
)

// verdict runs Stripe's retry policy under flaky-network against h and
// returns the run's summary. With inProcess the requests go through
// h.ServeHTTP with no socket; otherwise through an httptest server on
// loopback.
func verdict(t testing.TB, h http.Handler, inProcess bool, events int) *report.Summary {
	t.Helper()
	stripe, err := policies.Lookup("stripe")
	if err != nil {
		t.Fatal(err)
	}
	flaky, err := scenarios.Lookup("flaky-network")
	if err != nil {
		t.Fatal(err)
	}
	var records []simulator.Record
	cfg := simulator.Config{
		Policy:   stripe,
		Scenario: flaky,
		Events:   events,
		Secret:   policies.GenerateSecret("stripe", 1), // the secret your handler checks
		Sink:     simulator.Collect(&records),
		Effects:  simulator.EffectsFromHandler(h, demo.EffectsPath),
	}
	if inProcess {
		cfg.Handler = h
	} else {
		srv := httptest.NewServer(h)
		defer srv.Close()
		cfg.URL = srv.URL + "/webhooks/stripe"
	}
	if _, err := simulator.Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	runs, err := report.Summarize(records)
	if err != nil {
		t.Fatal(err)
	}
	return runs[0]
}

func TestHandlerIsIdempotentUnderStripeRetries(t *testing.T) {
	for _, tc := range []struct {
		name      string
		mode      demo.Mode
		inProcess bool
		want      report.Verdict
	}{
		{"idempotent handler, in process", demo.Idempotent, true, report.Idempotent},
		{"idempotent handler, over loopback", demo.Idempotent, false, report.Idempotent},
		// The same test catches the naive handler: proof it can fail.
		{"naive handler, in process", demo.Naive, true, report.NotIdempotent},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h, err := demo.New(tc.mode)
			if err != nil {
				t.Fatal(err)
			}
			defer h.Close()
			run := verdict(t, h, tc.inProcess, 50)
			if run.DuplicateArrivals == 0 {
				t.Fatal("no duplicate delivery reached the handler, so the verdict proves nothing")
			}
			if run.Verdict() != tc.want {
				t.Errorf("%s: %s", tc.want, run.VerdictLine())
			}
		})
	}
}

// BenchmarkStripeRetriesInProcess measures a 50-event run of Stripe's
// three-day schedule against the SQLite-backed handler, in process.
func BenchmarkStripeRetriesInProcess(b *testing.B) {
	h, err := demo.New(demo.Idempotent)
	if err != nil {
		b.Fatal(err)
	}
	defer h.Close()
	for b.Loop() {
		verdict(b, h, true, 50)
	}
}
