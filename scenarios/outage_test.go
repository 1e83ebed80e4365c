package scenarios_test

import (
	"testing"
	"time"

	"github.com/retrysim/retrysim/scenarios/scenariotest"
)

func TestOutage(t *testing.T) {
	h := &logHandler{}
	r := runFault(t, testPolicy(t, ""), scenariotest.Faults(t, "faults: [{type: outage, start: 10m, duration: 30m}]"), h, 6)
	first := firsts(r)
	down := func(at time.Duration) bool { return at >= 10*time.Minute && at < 40*time.Minute }
	checkPairs(t, r, 6, func(seq int) []pair { return windowPairs(first[seq], down) })
	checkArrivals(t, r, h)
	if r.res.Attempts == 6 {
		t.Errorf("no attempt fell in the outage: the test proves nothing")
	}
}
