package scenarios_test

import (
	"testing"

	"github.com/retrysim/retrysim/scenarios/scenariotest"
	"github.com/retrysim/retrysim/simulator"
)

func TestReset(t *testing.T) {
	reset := pair{simulator.ConnectionFailed, true}
	h := &logHandler{}
	r := runFault(t, testPolicy(t, ""), scenariotest.Faults(t, "faults: [{type: reset, attempts: [1, 2]}]"), h, 3)
	checkPairs(t, r, 3, same(reset, reset, delivered))
	checkArrivals(t, r, h)
	for _, a := range r.attempts {
		if a.Outcome == simulator.ConnectionFailed && (a.HandlerStatus != 200 || a.Status != 0 || a.Fault != "reset") {
			t.Errorf("reset: handler_status %d, status %d, fault %q; want the handler's 200, nothing at the provider, fault reset", a.HandlerStatus, a.Status, a.Fault)
		}
	}
	if got := len(h.logged()); got != 9 {
		t.Errorf("the handler logged %d arrivals, want 9 (3 events × 3 attempts, every one reached it)", got)
	}
}
