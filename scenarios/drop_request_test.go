package scenarios_test

import (
	"testing"

	"github.com/retrysim/retrysim/scenarios/scenariotest"
	"github.com/retrysim/retrysim/simulator"
)

func TestDropRequest(t *testing.T) {
	cases := []struct {
		name, scenario string
		want           []pair
	}{
		{"refused on the first two attempts", "faults: [{type: drop-request, attempts: [1, 2]}]",
			[]pair{refused, refused, delivered}},
		{"a black hole times out unanswered", "faults: [{type: drop-request, as: timeout, attempts: [1]}]",
			[]pair{{simulator.Timeout, false}, delivered}},
		{"every attempt refused: the event is given up", "faults: [{type: drop-request}]",
			repeat(refused, 4)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := &logHandler{}
			r := runFault(t, testPolicy(t, ""), scenariotest.Faults(t, tc.scenario), h, 3)
			checkPairs(t, r, 3, same(tc.want...))
			checkArrivals(t, r, h)
			for _, a := range r.attempts {
				if !a.Reached && a.Fault != "drop-request" {
					t.Errorf("attempt %d of event %d: fault %q, want drop-request", a.Attempt, a.Seq, a.Fault)
				}
			}
		})
	}
}
