package report

import (
	"fmt"
	"strings"
	"time"
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

// tenantChartTitle names the runs of the chart by tenant and how many
// subscriptions each disabled.
func tenantChartTitle(rep *Report) string {
	var parts []string
	for _, r := range rep.Runs {
		if !r.ManyTenants() {
			continue
		}
		parts = append(parts, fmt.Sprintf("%s: %d of %s disabled", r.Policy, len(r.Disables), counted(r.Tenants, "subscription", "subscriptions")))
	}
	r := rep.Runs[0]
	return fmt.Sprintf("Tenants · %s · seed %d · %s\n%s", r.Scenario, r.Seed, strings.Join(parts, " · "), chartTotals(rep))
}

// tenantRowNote is what a disabled tenant's row says beside the moment.
func tenantRowNote(row *tenantRow) string {
	return fmt.Sprintf("disabled +%s · %s lost", dur(row.disabledAt.Sub(row.run.Start)), thousands(row.lost))
}

// tenantChartNote says which tenants the rows are and how the bars read.
func tenantChartNote(rep *Report, rows []*tenantRow, step time.Duration) string {
	var parts []string
	for _, r := range rep.Runs {
		if !r.ManyTenants() {
			continue
		}
		shown, disabled := 0, 0
		for _, row := range rows {
			if row.run == r {
				shown++
				if !row.disabledAt.IsZero() {
					disabled++
				}
			}
		}
		s := fmt.Sprintf("Rows: %d of %s", shown, counted(r.Tenants, "tenant", "tenants"))
		if len(rep.Runs) > 1 {
			s = r.Policy + " rows: " + s[len("Rows: "):]
		}
		if n := len(r.Disables); n > 0 {
			s += fmt.Sprintf(", %d of the %d disabled (from the first to the last, with those that lost the most events)", disabled, n)
			if shown > disabled {
				s += fmt.Sprintf(" and %d never disabled", shown-disabled)
			}
		}
		parts = append(parts, s+".")
	}
	return fmt.Sprintf("%s Each row is one tenant's attempts in bars of %s, stacked by outcome, each as high as its share of that tenant's busiest bar. A tenant's subscription is disabled by its own failures; the other tenants go on receiving.",
		strings.Join(parts, " "), dur(step))
}
