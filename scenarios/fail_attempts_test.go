package scenarios_test

import (
	"testing"

	"github.com/retrysim/retrysim/scenarios/scenariotest"
	"github.com/retrysim/retrysim/simulator"
)

func TestFailAttempts(t *testing.T) {
	edge503 := pair{simulator.HTTPError, false}
	cases := []struct {
		name, scenario string
		want           []pair
	}{
		{"refused by default", "faults: [{type: fail-attempts, first: 2}]", []pair{refused, refused, delivered}},
		{"503 from the load balancer", "faults: [{type: fail-attempts, first: 3, status: 503}]", []pair{edge503, edge503, edge503, delivered}},
		{"more than the schedule", "faults: [{type: fail-attempts, first: 9}]", repeat(refused, 4)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := &logHandler{}
			r := runFault(t, testPolicy(t, ""), scenariotest.Faults(t, tc.scenario), h, 3)
			checkPairs(t, r, 3, same(tc.want...))
			checkArrivals(t, r, h)
		})
	}
}
