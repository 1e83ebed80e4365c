package report

import (
	"slices"
	"time"

	"github.com/retrysim/retrysim/simulator"
)

// TenantDisable is one tenant's subscription disabled, in a run of several
// tenants: whose, when, and by what.
type TenantDisable struct {
	Tenant string
	At     time.Time
	By     string
	Cause  simulator.DisableCause
}

// TenantLost is how many events one tenant lost.
type TenantLost struct {
	Tenant string
	Lost   int
}

// tenantFacts is what a run of several tenants says about them.
type tenantFacts struct {
	// Tenants is the number of senders the run's events came from (0 or
	// 1: one); Shard and Shards which shard of its run a stream is
	// (Shards 0 for a whole run, or a merge of all its shards).
	Tenants, Shard, Shards int
	// Disables are the tenants' subscriptions disabled, in order.
	Disables []TenantDisable
	// lostBy counts each tenant's lost events.
	lostBy map[string]int
}

func (r *runAgg) addDisable(rec *simulator.Record) {
	r.Disables = append(r.Disables, TenantDisable{Tenant: rec.Tenant, At: rec.Time, By: rec.DisabledBy, Cause: rec.DisabledCause})
}

// noteTenantLost counts a lost event against its tenant.
func (r *runAgg) noteTenantLost(rec *simulator.Record) {
	if rec.Tenant == "" {
		return
	}
	if r.lostBy == nil {
		r.lostBy = map[string]int{}
	}
	r.lostBy[rec.Tenant]++
}

// LostByTenant lists the tenants that lost events, most first (by name
// among equals).
func (r *Summary) LostByTenant() []TenantLost {
	out := make([]TenantLost, 0, len(r.lostBy))
	for t, n := range r.lostBy {
		out = append(out, TenantLost{t, n})
	}
	slices.SortFunc(out, func(a, b TenantLost) int {
		if a.Lost != b.Lost {
			return b.Lost - a.Lost
		}
		switch {
		case a.Tenant < b.Tenant:
			return -1
		case a.Tenant > b.Tenant:
			return 1
		}
		return 0
	})
	return out
}

// ManyTenants says the run's events came from several senders.
func (r *Summary) ManyTenants() bool { return r.Tenants > 1 }
