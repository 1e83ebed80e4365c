package scenarios_test

import (
	"testing"
	"time"

	"github.com/retrysim/retrysim/scenarios/scenariotest"
	"github.com/retrysim/retrysim/simulator"
)

// windowPairs is what an event sees when every attempt at a virtual time
// (since the start of the run) for which down is true is refused, under
// testPolicy (attempts at +0, +1m, +11m, +71m).
func windowPairs(first time.Duration, down func(at time.Duration) bool) []pair {
	var out []pair
	for _, off := range []time.Duration{0, time.Minute, 11 * time.Minute, 71 * time.Minute} {
		if !down(first + off) {
			return append(out, delivered)
		}
		out = append(out, refused)
	}
	return out
}

// firsts returns each event's first attempt, since the start of the run.
func firsts(r *result) map[int]time.Duration {
	out := map[int]time.Duration{}
	for _, a := range r.attempts {
		if a.N == 1 {
			out[a.Seq] = a.Time.Sub(simulator.DefaultStart)
		}
	}
	return out
}

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
