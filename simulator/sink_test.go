package simulator

import (
	"context"
	"strings"
	"testing"

	"github.com/retrysim/retrysim/scenarios/scenariotest"
)

// A sink is lent each record for its call. In a race-detector build (the
// one CI runs every test in) the engine catches a sink that breaks the
// loan, so that the tests of every sink in the repository check theirs.
func TestSinksThatBreakTheLoanAreCaught(t *testing.T) {
	if !checkSinks {
		t.Skip("the engine checks its sinks only in a race-detector build (go test -race)")
	}
	cfg := func(sink Sink) Config {
		return Config{Policy: mustPolicy(t, "stripe"), Scenario: scenariotest.Lookup(t, "happy"), DryRun: true, Events: 3, Sink: sink}
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
	t.Run("changed", func(t *testing.T) {
		defer func() {
			if p := recover(); p == nil || !strings.Contains(p.(string), "changed the attempt record") {
				t.Fatalf("a sink that changed an attempt record: %v, want the engine to panic naming it", p)
			}
		}()
		Run(context.Background(), cfg(func(r *Record) error {
			if r.Kind == KindAttempt {
				r.Fault = "edited"
			}
			return nil
		}))
	})
}
