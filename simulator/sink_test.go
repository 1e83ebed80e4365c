package simulator

import (
	"context"
	"strings"
	"testing"

	"github.com/retrysim/retrysim/policies/policytest"
	"github.com/retrysim/retrysim/scenarios/scenariotest"
)

// A sink is lent each record for its call. In a race-detector build (the
// one CI runs every test in) the engine catches a sink that breaks the
// loan, so that the tests of every sink in the repository check theirs.
func TestSinksThatBreakTheLoanAreCaught(t *testing.T) {
	if !raceBuild {
		t.Skip("the engine checks its sinks only in a race-detector build (go test -race)")
	}
	cfg := func(sink Sink) Config {
		return Config{Policy: policytest.Lookup(t, "stripe"), Scenario: scenariotest.Lookup(t, "happy"), DryRun: true, Events: 3, Sink: sink}
	}
	t.Run("kept", func(t *testing.T) {
		var kept []*Record
		if _, err := Run(context.Background(), cfg(func(r *Record) error { kept = append(kept, r); return nil })); err != nil {
			t.Fatal(err)
		}
		for _, r := range kept {
			if r.Kind != "reused" {
				t.Fatalf("a kept %s record still reads as one after its call; the engine must spoil it", r.Kind)
			}
		}
	})
	for _, tc := range []struct {
		name, kind string
		change     func(r *Record)
	}{
		{"a field", KindAttempt, func(r *Record) { r.Fault = "edited" }},
		{"what a slice holds", KindRun, func(r *Record) { r.Schedule[1] = 0 }},
		{"what a pointer points to", KindRun, func(r *Record) { *r.Start = r.Start.Add(1) }},
	} {
		t.Run("changed "+tc.name, func(t *testing.T) {
			defer func() {
				if p := recover(); p == nil || !strings.Contains(p.(string), "changed the "+tc.kind+" record") {
					t.Fatalf("a sink that changed %s of the %s record: %v, want the engine to panic naming it", tc.name, tc.kind, p)
				}
			}()
			Run(context.Background(), cfg(func(r *Record) error {
				if r.Kind == tc.kind {
					tc.change(r)
				}
				return nil
			}))
		})
	}
}
