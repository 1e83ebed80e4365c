package report

import (
	"fmt"
	"strings"
)

// maxTenantsListed is how many tenants a sentence names.
const maxTenantsListed = 5

// tenantsLine says, for a run of several tenants, how many subscriptions
// were disabled and when, and who lost the most events; "" for one tenant.
func tenantsLine(r *Summary) string {
	if !r.ManyTenants() {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d tenants", r.Tenants)
	if r.Shards > 1 {
		fmt.Fprintf(&b, " (this stream is shard %d of %d: its tenants only)", r.Shard, r.Shards)
	}
	if n := len(r.Disables); n > 0 {
		first, last := r.Disables[0], r.Disables[n-1]
		fmt.Fprintf(&b, " · %s DISABLED, each by its own failures (%s), the first at +%s (%s), the last at +%s",
			counted(n, "subscription", "subscriptions"), first.By, dur(first.At.Sub(r.Start)), first.Tenant, dur(last.At.Sub(r.Start)))
	} else {
		b.WriteString(" · none disabled")
	}
	if lost := r.LostByTenant(); len(lost) > 0 {
		fmt.Fprintf(&b, " · %s lost events, most: ", counted(len(lost), "tenant", "tenants"))
		for i, t := range lost[:min(len(lost), maxTenantsListed)] {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "%s %d", t.Tenant, t.Lost)
		}
		if len(lost) > maxTenantsListed {
			b.WriteString(", …")
		}
	}
	return b.String()
}

// disabledWhat says what the provider disabled: the endpoint, or its
// tenants' subscriptions.
func disabledWhat(r *Summary) string {
	if r.ManyTenants() {
		return fmt.Sprintf("%s of %d tenants", counted(len(r.Disables), "subscription", "subscriptions"), r.Tenants)
	}
	return "the endpoint"
}
