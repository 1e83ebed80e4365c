package simulator

import (
	"context"
	"testing"
	"time"

	"github.com/retrysim/retrysim/policies/policytest"
	"github.com/retrysim/retrysim/scenarios"
	"github.com/retrysim/retrysim/scenarios/scenariotest"
)

// A dry run is the HTTP path with the handler modelled as answering 200 at
// once: against a real handler that always answers 200, the same seed gives
// every attempt the same virtual time, outcome and fault, every event the
// same fate, and the endpoint the same fate, under every built-in scenario
// and every form of the disable rule. (Signature attacks are requests beside
// the attempts, which a dry run does not send.)
func TestModelMatchesHTTP(t *testing.T) {
	srv := ok200(t)
	type run struct {
		policy, scenario string
		events           int
	}
	var tests []run
	for _, name := range scenarios.Builtin() {
		tests = append(tests, run{"stripe", name, 120})
	}
	tests = append(tests,
		run{"github", "slow-handler", 150},
		run{"shopify-2024", "outage", 100}, // disabled after consecutive failures
		run{"slack", "flaky-network", 150}, // failure-rate disable rule
		run{"svix", "outage", 60},
	)
	for _, tc := range tests {
		t.Run(tc.policy+"/"+tc.scenario, func(t *testing.T) {
			cfg := Config{
				Policy: policytest.Lookup(t, tc.policy), Scenario: scenariotest.Lookup(t, tc.scenario),
				Events: tc.events, Over: time.Hour, Seed: 11, RunID: "test",
				Restart: func(context.Context) error { return nil },
			}
			viaHTTP, model := cfg, cfg
			viaHTTP.URL = srv.URL
			model.DryRun = true
			hrecs, hres := collect(t, viaHTTP)
			mrecs, mres := collect(t, model)
			type view struct {
				kind, event, fate string
				n, status         int
				at                time.Time
				outcome           Outcome
				fault             string
				reached, manual   bool
				copy              int
			}
			see := func(recs []Record) []view {
				var out []view
				for _, r := range recs {
					if r.Kind == KindAttempt || r.Kind == KindEvent || r.Kind == KindRestart {
						out = append(out, view{r.Kind, r.EventID, r.Fate, r.n(), r.HandlerStatus, r.Time, r.Outcome, r.Fault, r.Reached, r.Manual, r.Copy})
					}
				}
				return out
			}
			h, m := see(hrecs), see(mrecs)
			if len(h) != len(m) {
				t.Fatalf("HTTP path: %d attempt and event records; model: %d", len(h), len(m))
			}
			faults := 0
			for i := range h {
				if h[i] != m[i] {
					t.Fatalf("record %d differs:\n  HTTP:  %+v\n  model: %+v", i, h[i], m[i])
				}
				if h[i].fault != "" {
					faults++
				}
			}
			if faults == 0 && len(cfg.Scenario.Faults) > 0 && len(cfg.Scenario.Attacks()) == 0 { // attacks are not faults, and a dry run sends none
				t.Fatalf("%s injected no fault in %d records; the comparison means little", tc.scenario, len(h))
			}
			if hres.Attempts != mres.Attempts || hres.Delivered != mres.Delivered || hres.Lost != mres.Lost || !hres.DisabledAt.Equal(mres.DisabledAt) {
				t.Errorf("results differ:\n  HTTP:  %+v\n  model: %+v", *hres, *mres)
			}
		})
	}
}
