package scenarios_test

import (
	"testing"
	"time"

	"github.com/retrysim/retrysim/scenarios/scenariotest"
)

func TestFlapping(t *testing.T) {
	h := &logHandler{}
	r := runFault(t, testPolicy(t, ""), scenariotest.Faults(t, "faults: [{type: flapping, start: 5m, down: 4m, up: 3m}]"), h, 12)
	first := firsts(r)
	down := func(at time.Duration) bool {
		return at >= 5*time.Minute && (at-5*time.Minute)%(7*time.Minute) < 4*time.Minute
	}
	checkPairs(t, r, 12, func(seq int) []pair { return windowPairs(first[seq], down) })
	checkArrivals(t, r, h)
	refusedN := 0
	for _, a := range r.attempts {
		if !a.Reached {
			refusedN++
		}
	}
	if refusedN == 0 || refusedN == len(r.attempts) {
		t.Errorf("%d of %d attempts refused: the rhythm did not show", refusedN, len(r.attempts))
	}
}
