package simulator_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"reflect"
	"testing"

	"github.com/retrysim/retrysim/policies/policytest"
	"github.com/retrysim/retrysim/scenarios"
	"github.com/retrysim/retrysim/simulator"
)

// everyFault composes most fault types in one scenario.
const everyFault = `name: everything
faults:
  - {type: lost-response, probability: 0.2}
  - {type: drop-request, probability: 0.1}
  - {type: edge-error, probability: 0.1, status: [502, 503, 504]}
  - {type: reset, probability: 0.05}
  - {type: latency, probability: 0.2, distribution: lognormal, latency: 2s, sigma: 1.5}
  - {type: duplicate, probability: 0.1}
  - {type: reorder, every: 3}
  - {type: flapping, start: 30m, down: 5m, up: 20m}
  - {type: restart, interval: 10m, until: 2h}
  - {type: manual-redelivery, probability: 0.3, after: 1d}
`

// timeline is what must not depend on concurrency: every record but the
// measured latency.
func timeline(recs []simulator.Record) []simulator.Record {
	out := make([]simulator.Record, 0, len(recs))
	for _, r := range recs {
		r.Latency, r.WallStart = 0, nil // measured on the wall clock
		if r.Kind == simulator.KindEnd {
			continue // its time is the clock's, read after the run
		}
		out = append(out, r)
	}
	return out
}

func TestFaultsAreTheSameAtAnyConcurrency(t *testing.T) {
	sc, err := scenarios.Decode("everything.yaml", []byte(everyFault))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusOK) }))
	defer srv.Close()
	for _, name := range []string{"stripe", "shopify", "slack"} {
		t.Run(name, func(t *testing.T) {
			pol := policytest.Lookup(t, name)
			run := func(concurrency int) ([]simulator.Record, *simulator.Result) {
				var recs []simulator.Record
				res, err := simulator.Run(context.Background(), simulator.Config{
					Policy: pol, Scenario: sc, URL: srv.URL + "/webhooks/" + pol.Provider, Events: 60, Seed: 11, RunID: "test",
					Concurrency: concurrency, Secret: "test-secret",
					Restart: func(context.Context) error { return nil },
					Sink:    func(r *simulator.Record) error { recs = append(recs, *r); return nil },
				})
				if err != nil {
					t.Fatal(err)
				}
				return recs, res
			}
			one, res1 := run(1)
			many, resN := run(64)
			if a, b := timeline(one), timeline(many); !reflect.DeepEqual(a, b) {
				for i := range a {
					if !reflect.DeepEqual(a[i], b[i]) {
						t.Errorf("record %d:\n%+v\n%+v", i, a[i], b[i])
						break
					}
				}
				t.Fatalf("records differ between concurrency 1 (%d) and 64 (%d)", len(one), len(many))
			}
			if res1.Restarts == 0 || res1.Attempts <= res1.Events {
				t.Errorf("restarts %d, attempts %d for %d events: the scenario did too little to prove anything", res1.Restarts, res1.Attempts, res1.Events)
			}
			if res1.Delivered != resN.Delivered || res1.Lost != resN.Lost || !res1.DisabledAt.Equal(resN.DisabledAt) {
				t.Errorf("results differ: %+v vs %+v", res1, resN)
			}
			kinds := map[string]bool{}
			for _, r := range one {
				if r.Copy == 1 {
					kinds["copy"] = true
				}
				if r.Manual {
					kinds["manual"] = true
				}
			}
			if name == "stripe" && (!kinds["copy"] || !kinds["manual"]) {
				t.Errorf("stripe run had duplicates %t and manual resends %t; want both", kinds["copy"], kinds["manual"])
			}
		})
	}
}
