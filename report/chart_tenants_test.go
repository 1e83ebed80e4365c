package report_test

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/retrysim/retrysim/policies"
	"github.com/retrysim/retrysim/policies/policytest"
	"github.com/retrysim/retrysim/report"
	"github.com/retrysim/retrysim/scenarios/scenariotest"
	"github.com/retrysim/retrysim/simulator"
)

// tenantReport is the report of Shopify's tenants through a 6-hour outage,
// every timeline kept, as a chart needs.
func tenantReport(t *testing.T, tenants int) *report.Report {
	t.Helper()
	pol := policytest.Lookup(t, "shopify")
	agg := report.NewAggregator(report.WithTimeline(-1))
	t.Cleanup(func() { agg.Close() })
	if _, err := simulator.Run(t.Context(), simulator.Config{
		Policy: pol, Scenario: scenariotest.Lookup(t, "outage-6h"), DryRun: true, Events: 1000, Over: 12 * time.Hour,
		Seed: 5, RunID: "tenants", Tenants: tenants, Sink: agg.Add,
	}); err != nil {
		t.Fatal(err)
	}
	return &report.Report{Runs: agg.Runs()}
}

// The timeline by tenant: one row per tenant, the disabled ones from the
// first to the last, and some never disabled.
func TestTenantChartGolden(t *testing.T) {
	t.Parallel()
	rep := tenantReport(t, 100)
	r := rep.Runs[0]
	if len(r.Disables) < 2 {
		t.Fatalf("%d tenants disabled: the chart would show no spread", len(r.Disables))
	}
	opts := report.ChartOptions{Chart: report.ChartTimeline, By: report.ByTenant}
	var svg bytes.Buffer
	if err := report.WriteChart(&svg, rep, report.FormatSVG, opts); err != nil {
		t.Fatal(err)
	}
	first, last := r.Disables[0], r.Disables[len(r.Disables)-1]
	lostFirst := 0
	for _, l := range r.LostByTenant() {
		if l.Tenant == first.Tenant {
			lostFirst = l.Lost
		}
	}
	for _, want := range []string{
		fmt.Sprintf("shopify: %d of 100 subscriptions disabled", len(r.Disables)),
		strings.TrimSuffix(first.Tenant, ".myshopify.com"),
		strings.TrimSuffix(last.Tenant, ".myshopify.com"),
		fmt.Sprintf("disabled +%s · %d lost", policies.FormatDuration(first.At.Sub(r.Start)), lostFirst),
		"subscription disabled", "never disabled",
	} {
		if !bytes.Contains(svg.Bytes(), []byte(want)) {
			t.Errorf("the chart by tenant does not show %q", want)
		}
	}
	var buf bytes.Buffer
	if err := report.WriteChart(&buf, rep, report.FormatPNG, opts); err != nil {
		t.Fatal(err)
	}
	goldenPNG(t, "timeline-by-tenant.png", buf.Bytes())
}

// A run of one sender has no tenants to draw: nothing to draw, as for a
// run with no attempts, so a report command skips the chart with a note.
func TestTenantChartNeedsTenants(t *testing.T) {
	rep := tenantReport(t, 1)
	err := report.WriteChart(&bytes.Buffer{}, rep, report.FormatPNG, report.ChartOptions{By: report.ByTenant})
	if !errors.Is(err, report.ErrNoData) {
		t.Fatalf("err = %v, want ErrNoData", err)
	}
}

// The chart by tenant shows the disabled tenants that lost the most
// events, those the text names, among the ones it spreads over the run:
// spread by the moment of their disable alone, the tenant that lost the
// most was often left out.
func TestTenantChartShowsThoseThatLostMost(t *testing.T) {
	rep := tenantReport(t, 100)
	r := rep.Runs[0]
	disabled := map[string]bool{}
	for _, d := range r.Disables {
		disabled[d.Tenant] = true
	}
	if len(r.Disables) <= report.DefaultChartRows {
		t.Fatalf("%d tenants disabled: the chart shows them all", len(r.Disables))
	}
	var svg bytes.Buffer
	if err := report.WriteChart(&svg, rep, report.FormatSVG, report.ChartOptions{Chart: report.ChartTimeline, By: report.ByTenant}); err != nil {
		t.Fatal(err)
	}
	named := 0
	for _, l := range r.LostByTenant() {
		if named == 5 {
			break
		}
		if !disabled[l.Tenant] {
			continue
		}
		named++
		if want := ">" + strings.TrimSuffix(l.Tenant, ".myshopify.com") + "<"; !strings.Contains(svg.String(), want) {
			t.Errorf("%s lost %d events, among the most, and has no row", l.Tenant, l.Lost)
		}
	}
}
