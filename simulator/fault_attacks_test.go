package simulator

import (
	"testing"
	"time"

	"github.com/retrysim/retrysim/policies/policytest"
	"github.com/retrysim/retrysim/scenarios/scenariotest"
)

// Attacks go beside the attempt, leaving it alone; a dry run sends none.
func TestAttacksBeside(t *testing.T) {
	srv := ok200(t)
	sc := scenariotest.Faults(t, "faults: [{type: bad-signature, attempts: [1]}]\n")
	for _, dry := range []bool{false, true} {
		cfg := Config{Policy: policytest.Lookup(t, "stripe"), Scenario: sc, Events: 1, Over: time.Minute, Seed: 1, RunID: "test", DryRun: dry}
		if !dry {
			cfg.URL = srv.URL
		}
		recs, _ := collect(t, cfg)
		sent, plain := 0, 0
		for _, r := range recs {
			switch {
			case r.Kind == KindAttack && r.NotApplicable == "" && r.Reached:
				sent++
			case r.Kind == KindAttempt && r.Outcome == Delivered && r.Fault == "":
				plain++
			}
		}
		if want := map[bool]int{false: 1, true: 0}[dry]; sent != want || plain != 1 {
			t.Errorf("dry run %v: %d attack requests and %d plain delivered attempts; want %d and 1", dry, sent, plain, want)
		}
	}
}
