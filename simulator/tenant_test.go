package simulator

import (
	"net/http"
	"reflect"
	"testing"
	"time"

	"github.com/retrysim/retrysim/policies"
	"github.com/retrysim/retrysim/policies/policytest"
	"github.com/retrysim/retrysim/scenarios/scenariotest"
)

// tenantRun is a model run of Shopify (19 consecutive failures within 48
// hours disable a subscription) through a 6-hour outage, over tenants.
func tenantRun(tb testing.TB, tenants int, shard Shard) Config {
	return Config{
		Policy: policytest.Lookup(tb, "shopify"), Scenario: scenariotest.Lookup(tb, "outage-6h"), DryRun: true,
		Events: 1000, Over: 12 * time.Hour, Seed: 5, RunID: "tenants", Tenants: tenants, Shard: shard,
	}
}

func TestTenantsAreDisabledIndependently(t *testing.T) {
	recs, res := collect(t, tenantRun(t, 100, Shard{}))
	disabledAt := map[string]time.Time{}
	var firstDisable time.Time
	for _, r := range recs {
		switch r.Kind {
		case KindDisable:
			if _, twice := disabledAt[r.Tenant]; twice || r.Tenant == "" {
				t.Fatalf("tenant %q disabled twice or unnamed", r.Tenant)
			}
			disabledAt[r.Tenant] = r.Time
			if firstDisable.IsZero() {
				firstDisable = r.Time
			}
			if r.DisabledCause != DisabledByRule {
				t.Errorf("tenant %s disabled by %q", r.Tenant, r.DisabledCause)
			}
		case KindAttempt:
			if at, off := disabledAt[r.Tenant]; off && r.Time.After(at) {
				t.Fatalf("tenant %s attempted at %s after it was disabled at %s", r.Tenant, r.Time, at)
			}
		case KindEnd:
			if r.DisabledAt != nil {
				t.Errorf("the endpoint itself was disabled at %s: a tenant's rule disabled everyone", r.DisabledAt)
			}
		}
	}
	if res.TenantsDisabled != len(disabledAt) || len(disabledAt) < 2 || len(disabledAt) > 95 {
		t.Fatalf("%d tenants disabled (result says %d): want some, not all", len(disabledAt), res.TenantsDisabled)
	}
	// Each at the moment its own failures reached the rule.
	var last time.Time
	for _, at := range disabledAt {
		if at.After(last) {
			last = at
		}
	}
	if last.Sub(firstDisable) < time.Hour {
		t.Errorf("tenants disabled from %s to %s: all at about once", firstDisable, last)
	}
	// Tenants still enabled kept receiving after the first was disabled,
	// and each disabled tenant's events ended disabled, the others' not.
	after := 0
	for _, r := range recs {
		if r.Kind == KindAttempt && r.Time.After(firstDisable) && r.Outcome == Delivered {
			if _, off := disabledAt[r.Tenant]; !off {
				after++
			}
		}
		if r.Kind == KindEvent && r.Fate == FateDisabled {
			if _, off := disabledAt[r.Tenant]; !off {
				t.Fatalf("event %d of tenant %s, never disabled, ended disabled", r.Seq, r.Tenant)
			}
		}
	}
	if after == 0 {
		t.Error("no tenant was delivered to after the first tenant was disabled")
	}
	if res.Lost == 0 || res.Lost == res.Events {
		t.Errorf("lost %d of %d events", res.Lost, res.Events)
	}
}

// One tenant is the run as it was: the same records, byte for byte.
func TestOneTenantIsTheRunAsItWas(t *testing.T) {
	a, _ := collect(t, tenantRun(t, 0, Shard{}))
	b, _ := collect(t, tenantRun(t, 1, Shard{}))
	a[0].WallStart, b[0].WallStart = nil, nil // the wall clock's, when each run started
	if !reflect.DeepEqual(a, b) {
		t.Fatal("Tenants: 1 changed the records")
	}
	for _, r := range a {
		if r.Tenant != "" || r.Tenants != 0 || r.Kind == KindDisable {
			t.Fatalf("a one-tenant run's record names tenants: %+v", r)
		}
	}
}

// A shard's records are the whole run's records of the shard's tenants,
// in the same order: tenants share no state.
func TestShardsAreExact(t *testing.T) {
	const tenants, shards = 40, 3
	whole, _ := collect(t, tenantRun(t, tenants, Shard{}))
	w, _ := policies.WireFor("shopify")
	index := map[string]int{}
	for i := range tenants {
		index[policies.TenantName(w, i)] = i
	}
	body := func(r *Record) bool {
		return r.Kind == KindAttempt || r.Kind == KindEvent || r.Kind == KindDisable || r.Kind == KindAttack
	}
	total := 0
	for s := range shards {
		part, _ := collect(t, tenantRun(t, tenants, Shard{Index: s, Of: shards}))
		var want, got []Record
		for _, r := range whole {
			if body(&r) && ShardOf(5, index[r.Tenant], shards) == s {
				want = append(want, r)
			}
		}
		for _, r := range part {
			if body(&r) {
				got = append(got, r)
			}
			if r.Kind == KindRun && (r.Shard != s || r.Shards != shards || r.Tenants != tenants) {
				t.Errorf("shard %d's run record says shard %d of %d, %d tenants", s, r.Shard, r.Shards, r.Tenants)
			}
		}
		if len(got) == 0 || !reflect.DeepEqual(got, want) {
			t.Fatalf("shard %d: %d records, the whole run's of its tenants %d, or they differ", s, len(got), len(want))
		}
		total += len(got)
	}
	n := 0
	for _, r := range whole {
		if body(&r) {
			n++
		}
	}
	if total != n {
		t.Fatalf("the shards hold %d records, the whole run %d", total, n)
	}
}

// Against a real handler, at any concurrency, per-tenant disabling gives
// the same records as a serial run.
func TestTenantsConcurrentAsSerial(t *testing.T) {
	pol := custom(t, "p: {base: shopify-2024, disable: {consecutive_failures: 3}}", "p")
	// The handler fails every event of some shops.
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		shop := r.Header.Get("X-Shopify-Shop-Domain")
		if shop == "shop-2.myshopify.com" || shop == "shop-5.myshopify.com" {
			w.WriteHeader(500)
		}
	})
	run := func(concurrency int) []Record {
		recs, _ := collect(t, Config{Policy: pol, Handler: h, Events: 300, Over: time.Hour, Seed: 3, RunID: "t",
			Concurrency: concurrency, Secret: "s", Tenants: 6})
		for i := range recs {
			recs[i].Latency, recs[i].WallStart = 0, nil // measured on the wall clock
		}
		return recs
	}
	serial, concurrent := run(1), run(16)
	if !reflect.DeepEqual(serial, concurrent) {
		t.Fatal("a concurrent run of tenants differs from a serial one")
	}
	disabled := map[string]bool{}
	for _, r := range serial {
		if r.Kind == KindDisable {
			disabled[r.Tenant] = true
		}
	}
	if len(disabled) != 2 || !disabled["shop-2.myshopify.com"] || !disabled["shop-5.myshopify.com"] {
		t.Fatalf("disabled %v, want the two failing shops", disabled)
	}
}

func TestShardRefusals(t *testing.T) {
	for _, c := range []struct {
		tenants int
		shard   Shard
		runID   string
	}{
		{1, Shard{Index: 0, Of: 2}, "r"},
		{4, Shard{Index: 4, Of: 4}, "r"},
		{4, Shard{Index: 0, Of: 5}, "r"},
		{4, Shard{Index: 0, Of: 2}, ""},
	} {
		cfg := tenantRun(t, c.tenants, c.shard)
		cfg.RunID = c.runID
		if _, err := Run(t.Context(), cfg); err == nil {
			t.Errorf("tenants %d shard %s run id %q: not refused", c.tenants, c.shard, c.runID)
		}
	}
}
