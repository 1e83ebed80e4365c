package main

import (
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// --by tenant draws the timeline with a row per tenant for a run of
// tenants; a run of one sender is refused, and a stream of one has none
// to draw and says so; a row kind that does not exist is refused, naming
// the valid ones.
func TestChartByTenant(t *testing.T) {
	dir := t.TempDir()
	pic := filepath.Join(dir, "tenants.png")
	mustRun(t, nil, "run", "--dry-run", "--provider", "shopify", "--scenario", "outage-6h", "--tenants", "100",
		"--events", "1000", "--over", "12h", "--seed", "5", "--by", "tenant", "--out", pic)
	f, err := os.Open(pic)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if img, err := png.Decode(f); err != nil || img.Bounds().Dx() != 1600 {
		t.Fatalf("the chart by tenant is not a 1600-pixel PNG: %v", err)
	}

	// A run of one sender is refused before it runs; a stream of one read
	// back has no tenant to draw, and says so.
	one := filepath.Join(dir, "one.png")
	code, _, errs := retrysim(t, nil, "run", "--dry-run", "--provider", "shopify", "--events", "50", "--by", "tenant", "--out", one)
	if _, err := os.Stat(one); code != 2 || err == nil || !strings.Contains(errs, "give --tenants N") {
		t.Errorf("a run of one tenant: exit %d, chart written (%v), or not said why not:\n%s", code, err, errs)
	}
	results := filepath.Join(dir, "one.jsonl")
	mustRun(t, nil, "run", "--dry-run", "--provider", "shopify", "--events", "50", "--results", results)
	_, errs = mustRun(t, nil, "report", "--by", "tenant", "--out", one, results)
	if _, err := os.Stat(one); err == nil || !strings.Contains(errs, "several tenants") {
		t.Errorf("a stream of one tenant: chart written (%v), or not said why not:\n%s", err, errs)
	}

	code, _, errs = retrysim(t, nil, "run", "--dry-run", "--provider", "shopify", "--events", "50", "--by", "shop")
	if code != 2 || !strings.Contains(errs, "valid: event, tenant") {
		t.Errorf("--by shop: exit %d, %s", code, errs)
	}
}
