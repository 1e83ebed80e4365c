package scenarios_test

import (
	"slices"
	"testing"

	"github.com/retrysim/retrysim/scenarios/scenariotest"
	"github.com/retrysim/retrysim/simulator"
)

func TestEdgeError(t *testing.T) {
	edge := pair{simulator.HTTPError, false}
	cases := []struct {
		name, scenario string
		statuses       []int
		want           []pair
	}{
		{"one status", "faults: [{type: edge-error, status: 503, attempts: [1]}]", []int{503}, []pair{edge, delivered}},
		{"a status drawn per attempt", "faults: [{type: edge-error, status: [502, 503, 504], attempts: [1, 2, 3]}]",
			[]int{502, 503, 504}, []pair{edge, edge, edge, delivered}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := &logHandler{}
			r := runFault(t, testPolicy(t, ""), scenariotest.Faults(t, tc.scenario), h, 4)
			checkPairs(t, r, 4, same(tc.want...))
			checkArrivals(t, r, h)
			seen := map[int]bool{}
			for _, a := range r.attempts {
				if a.Outcome != simulator.HTTPError {
					continue
				}
				seen[a.Status] = true
				if !slices.Contains(tc.statuses, a.Status) || a.HandlerStatus != 0 {
					t.Errorf("edge error: status %d, handler_status %d; want one of %v from the proxy and nothing from the handler", a.Status, a.HandlerStatus, tc.statuses)
				}
			}
			if len(seen) != len(tc.statuses) {
				t.Errorf("statuses seen %v, want each of %v", seen, tc.statuses)
			}
		})
	}
}
