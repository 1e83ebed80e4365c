package advice_test

import (
	"slices"
	"testing"

	"github.com/retrysim/retrysim/report"
	"github.com/retrysim/retrysim/report/advice"
)

// TestCompletions: each command completes --format from the formats it
// writes, --provider from the built-in policies and 'all', and --chart
// from the charts except under policies, where it names a file.
func TestCompletions(t *testing.T) {
	run, ttl, pol := advice.Completions("run"), advice.Completions("ttl"), advice.Completions("policies")
	if !slices.Contains(run["format"](), "junit") || slices.Contains(ttl["format"](), "junit") {
		t.Errorf("formats: run %v, ttl %v", run["format"](), ttl["format"]())
	}
	if !slices.Equal(pol["format"](), report.PolicyFormats()) {
		t.Errorf("policies formats %v", pol["format"]())
	}
	if p := run["provider"](); !slices.Contains(p, "stripe") || p[len(p)-1] != "all" {
		t.Errorf("providers %v", p)
	}
	if _, ok := pol["chart"]; ok {
		t.Error("policies --chart names a file, not a chart")
	}
	if !slices.Equal(run["chart"](), report.Charts()) {
		t.Errorf("charts %v", run["chart"]())
	}
	if !advice.IsList("provider") || !advice.IsList("fail-on") || advice.IsList("format") {
		t.Error("IsList")
	}
}

// TestComplete: a value completes from those it starts; in a list, the
// last element completes after the ones typed.
func TestComplete(t *testing.T) {
	values := []string{"stripe", "stripe-2024", "shopify", "slack"}
	if got := advice.Complete(values, false, "str"); !slices.Equal(got, []string{"stripe", "stripe-2024"}) {
		t.Errorf("one value: %v", got)
	}
	if got := advice.Complete(values, true, "github,s"); !slices.Equal(got, []string{"github,stripe", "github,stripe-2024", "github,shopify", "github,slack"}) {
		t.Errorf("a list: %v", got)
	}
	if got := advice.Complete(values, false, "github,s"); got != nil {
		t.Errorf("a comma in a single value: %v", got)
	}
}
