package scenarios_test

import (
	"testing"

	"github.com/retrysim/retrysim/scenarios/scenariotest"
	"github.com/retrysim/retrysim/simulator"
)

func TestLostResponse(t *testing.T) {
	lost := pair{simulator.LostResponse, true}
	cases := []struct {
		name, scenario string
		want           []pair
	}{
		{"the first answer is lost", "faults: [{type: lost-response, attempts: [1]}]", []pair{lost, delivered}},
		{"three answers are lost", "faults: [{type: lost-response, attempts: [1, 2, 3]}]", []pair{lost, lost, lost, delivered}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := &logHandler{}
			r := runFault(t, testPolicy(t, ""), scenariotest.Faults(t, tc.scenario), h, 3)
			checkPairs(t, r, 3, same(tc.want...))
			checkArrivals(t, r, h)
			for _, a := range r.attempts {
				if a.Outcome == simulator.LostResponse && (a.HandlerStatus != 200 || a.Status != 0) {
					t.Errorf("lost answer: handler_status %d, status %d; want the handler's 200 recorded and nothing seen by the provider", a.HandlerStatus, a.Status)
				}
			}
			if got, want := len(h.logged()), 3*len(tc.want); got != want {
				t.Errorf("the handler logged %d arrivals, want %d: every lost answer was processed", got, want)
			}
		})
	}
}
