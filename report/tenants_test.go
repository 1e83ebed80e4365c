package report

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/retrysim/retrysim/policies"
	"github.com/retrysim/retrysim/scenarios"
	"github.com/retrysim/retrysim/simulator"
)

func TestReportCountsDisabledTenants(t *testing.T) {
	pol, err := policies.Lookup("shopify")
	if err != nil {
		t.Fatal(err)
	}
	sc, err := scenarios.Lookup("outage-6h")
	if err != nil {
		t.Fatal(err)
	}
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
