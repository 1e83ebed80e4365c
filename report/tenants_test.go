package report

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/retrysim/retrysim/policies/policytest"
	"github.com/retrysim/retrysim/scenarios/scenariotest"
	"github.com/retrysim/retrysim/simulator"
)

func TestReportCountsDisabledTenants(t *testing.T) {
	pol := policytest.Lookup(t, "shopify")
	sc := scenariotest.Lookup(t, "outage-6h")
	var recs []simulator.Record
	res, err := simulator.Run(context.Background(), simulator.Config{
		Policy: pol, Scenario: sc, DryRun: true, Events: 1000, Over: 12 * time.Hour, Seed: 5, RunID: "r", Tenants: 100,
		Sink: func(r *simulator.Record) error { recs = append(recs, *r); return nil },
	})
	if err != nil {
		t.Fatal(err)
	}
	runs, err := Summarize(recs)
	if err != nil {
		t.Fatal(err)
	}
	r := runs[0]
	if r.Tenants != 100 || len(r.Disables) != res.TenantsDisabled || res.TenantsDisabled < 2 {
		t.Fatalf("tenants %d, disables %d, the engine disabled %d", r.Tenants, len(r.Disables), res.TenantsDisabled)
	}
	sum := 0
	for _, l := range r.LostByTenant() {
		sum += l.Lost
	}
	if sum != r.Lost || sum != res.Lost {
		t.Fatalf("lost by tenant sums to %d; lost %d, the engine %d", sum, r.Lost, res.Lost)
	}
	var b strings.Builder
	if err := Write(&b, &Report{Runs: runs}, FormatText); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"tenants: 100 tenants", "subscriptions DISABLED", "subscriptions of 100 tenants"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("the text report does not say %q:\n%s", want, b.String())
		}
	}
}

// Shopify with 100 tenants through a 6-hour outage: every format says how
// many subscriptions were disabled, when the first and the last were, and
// which tenants lost how many events, as the engine's own records tell it.
func TestTenantsReportSaysWhoWasDisabledAndLost(t *testing.T) {
	pol := policytest.Lookup(t, "shopify")
	sc := scenariotest.Lookup(t, "outage-6h")
	var recs []simulator.Record
	if _, err := simulator.Run(context.Background(), simulator.Config{
		Policy: pol, Scenario: sc, DryRun: true, Events: 1000, Over: 12 * time.Hour, Seed: 5, RunID: "r", Tenants: 100,
		Sink: func(r *simulator.Record) error { recs = append(recs, *r); return nil },
	}); err != nil {
		t.Fatal(err)
	}
	// The facts, from the records themselves.
	var start time.Time
	var disabled []simulator.Record
	lost := map[string]int{}
	for _, r := range recs {
		switch {
		case r.Kind == simulator.KindRun:
			start = r.Time
		case r.Kind == simulator.KindDisable:
			disabled = append(disabled, r)
		case r.Kind == simulator.KindEvent && r.Fate == simulator.FateDisabled:
			lost[r.Tenant]++
		}
	}
	if len(disabled) < 2 || len(disabled) > 95 || len(lost) == 0 {
		t.Fatalf("%d tenants disabled, %d lost events: want some tenants disabled, not all", len(disabled), len(lost))
	}
	first, last := disabled[0], disabled[len(disabled)-1]
	if last.Time.Sub(first.Time) < time.Hour {
		t.Fatalf("disabled from +%s to +%s: all at about once", first.Time.Sub(start), last.Time.Sub(start))
	}
	most, mostLost := "", 0
	for tenant, n := range lost {
		if n > mostLost || (n == mostLost && tenant < most) {
			most, mostLost = tenant, n
		}
	}
	runs, err := Summarize(recs)
	if err != nil {
		t.Fatal(err)
	}
	render := func(format string) string {
		var b strings.Builder
		if err := Write(&b, &Report{Runs: runs}, format); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	said := []string{
		fmt.Sprintf("%d subscriptions DISABLED", len(disabled)),
		fmt.Sprintf("the first at +%s (%s)", dur(first.Time.Sub(start)), first.Tenant),
		fmt.Sprintf("the last at +%s", dur(last.Time.Sub(start))),
		fmt.Sprintf("%d tenants lost events, most: %s %d", len(lost), most, mostLost),
	}
	for _, format := range []string{FormatText, FormatMarkdown} {
		out := strings.Join(strings.Fields(render(format)), " ") // unwrapped
		for _, want := range said {
			if !strings.Contains(out, want) {
				t.Errorf("%s report does not say %q:\n%s", format, want, out)
			}
		}
	}
	var doc struct {
		Runs []struct {
			Summary struct {
				Tenants struct {
					Tenants  int `json:"tenants"`
					Disabled []struct {
						Tenant    string  `json:"tenant"`
						AtSeconds float64 `json:"at_seconds"`
					} `json:"disabled"`
					LostBy []struct {
						Tenant string `json:"tenant"`
						Lost   int    `json:"lost"`
					} `json:"lost_by_tenant"`
				} `json:"tenants"`
			} `json:"summary"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(render(FormatJSON)), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Runs) != 1 {
		t.Fatalf("JSON report has %d runs", len(doc.Runs))
	}
	jt := doc.Runs[0].Summary.Tenants
	if jt.Tenants != 100 || len(jt.Disabled) != len(disabled) {
		t.Fatalf("JSON says %d tenants, %d disabled; want 100, %d", jt.Tenants, len(jt.Disabled), len(disabled))
	}
	for i, d := range jt.Disabled {
		if d.Tenant != disabled[i].Tenant || d.AtSeconds != disabled[i].Time.Sub(start).Seconds() {
			t.Errorf("JSON disable %d: %s at %gs, the engine's %s at %s", i, d.Tenant, d.AtSeconds, disabled[i].Tenant, disabled[i].Time.Sub(start))
		}
	}
	if len(jt.LostBy) != len(lost) {
		t.Fatalf("JSON lists %d tenants that lost events, the records %d", len(jt.LostBy), len(lost))
	}
	for i, l := range jt.LostBy {
		if l.Lost != lost[l.Tenant] || (i > 0 && l.Lost > jt.LostBy[i-1].Lost) {
			t.Errorf("JSON: %s lost %d (place %d), the records say %d, most first", l.Tenant, l.Lost, i, lost[l.Tenant])
		}
	}
}
