package report_test

import (
	"encoding/json"
	"net/http"
	"sync"
	"testing"

	"github.com/retrysim/retrysim/policies/policytest"
	"github.com/retrysim/retrysim/report"
	"github.com/retrysim/retrysim/scenarios/scenariotest"
	"github.com/retrysim/retrysim/simulator"
)

// shopLedger is a Shopify app's handler serving many shops: it processes
// each delivery, remembering the ones done by (shop, event id) when
// perShop is set, or not at all; it serves its effects by event id.
type shopLedger struct {
	perShop bool
	mu      sync.Mutex
	done    map[[2]string]bool
	effects map[string]int
}

func (l *shopLedger) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if r.Method == http.MethodGet {
		json.NewEncoder(w).Encode(l.effects)
		return
	}
	shop, id := r.Header.Get("X-Shopify-Shop-Domain"), r.Header.Get("X-Shopify-Event-Id")
	if shop == "" || id == "" {
		http.Error(w, "no shop or event id", http.StatusBadRequest)
		return
	}
	key := [2]string{shop, id}
	if !l.perShop || !l.done[key] {
		l.done[key] = true
		l.effects[id]++
	}
	w.WriteHeader(http.StatusOK)
}

// A handler that keys its dedup per tenant (shop, event id) is judged
// idempotent, as one keyed on the event id alone would be: the event id
// stays unique per event across tenants. The same handler without its
// dedup is caught.
func TestPerTenantDedupIsJudged(t *testing.T) {
	pol := policytest.Lookup(t, "shopify")
	for _, c := range []struct {
		perShop bool
		want    report.Verdict
	}{{true, report.Idempotent}, {false, report.NotIdempotent}} {
		h := &shopLedger{perShop: c.perShop, done: map[[2]string]bool{}, effects: map[string]int{}}
		agg := report.NewAggregator()
		if _, err := simulator.Run(t.Context(), simulator.Config{
			Policy: pol, Scenario: scenariotest.Lookup(t, "flaky-network"), Handler: h, Events: 300, Seed: 7,
			Tenants: 20, RunID: "shops", Effects: simulator.EffectsFromHandler(h, "/_retrysim/effects"), Sink: agg.Add,
		}); err != nil {
			t.Fatal(err)
		}
		r := agg.Runs()[0]
		agg.Close()
		if r.Tenants != 20 || r.DuplicateArrivals == 0 {
			t.Fatalf("%d tenants, %d duplicate arrivals: the run tests nothing", r.Tenants, r.DuplicateArrivals)
		}
		if got := r.Verdict(); got != c.want {
			t.Errorf("dedup per shop %v: verdict %v, want %v (%+v)", c.perShop, got, c.want, r.Judge())
		}
	}
}
