package scenarios_test

import (
	"testing"

	"github.com/retrysim/retrysim/scenarios/scenariotest"
	"github.com/retrysim/retrysim/simulator"
)

func TestRedirect(t *testing.T) {
	redirected := pair{simulator.Redirect, false}
	cases := []struct {
		name, policy, scenario string
		want                   []pair
		status                 int
	}{
		{"a provider that does not follow fails every delivery", "", "faults: [{type: redirect, status: 308}]", repeat(redirected, 4), 308},
		{"a provider that follows two reaches the handler", "follow_redirects: 2\n", "faults: [{type: redirect, status: 301}]", []pair{delivered}, 200},
		{"a chain longer than the provider follows", "follow_redirects: 2\n", "faults: [{type: redirect, status: 308, hops: 3, attempts: [1]}]", []pair{redirected, delivered}, 308},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := &logHandler{}
			r := runFault(t, testPolicy(t, tc.policy), scenariotest.Faults(t, tc.scenario), h, 3)
			checkPairs(t, r, 3, same(tc.want...))
			checkArrivals(t, r, h)
			if a := r.attempts[0]; a.Status != tc.status || a.Fault != "redirect" {
				t.Errorf("first attempt: status %d, fault %q; want %d, redirect", a.Status, a.Fault, tc.status)
			}
		})
	}
}
