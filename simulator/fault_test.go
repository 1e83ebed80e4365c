package simulator

import (
	"testing"
	"time"

	"github.com/retrysim/retrysim/policies/policytest"
	"github.com/retrysim/retrysim/scenarios/scenariotest"
)

// faultAttempt runs one event of policy under a scenario of the one fault
// given in YAML flow form, as a dry run (the handler modelled as answering
// 200 at once) unless url is given, and returns its first attempt's record.
func faultAttempt(t *testing.T, policy, fault, url string) Record {
	t.Helper()
	sc := scenariotest.Faults(t, "faults: ["+fault+"]\n")
	cfg := Config{Policy: policytest.Lookup(t, policy), Scenario: sc, Events: 1, Over: time.Minute, Seed: 1, RunID: "test", URL: url, DryRun: url == ""}
	recs, _ := collect(t, cfg)
	for _, r := range recs {
		if r.Kind == KindAttempt && r.Attempt == 1 && r.Attack == "" {
			return r
		}
	}
	t.Fatalf("no first attempt among %d records", len(recs))
	return Record{}
}

// Each point of an attempt asks its effects in the documented order: the
// first that settles the attempt wins.
func TestFaultOrder(t *testing.T) {
	tests := []struct {
		faults  string
		outcome Outcome
		fault   string
	}{
		// A black hole wins over a refused connection, which wins over an
		// edge answer: the request never gets that far.
		{"{type: edge-error, status: [502]}, {type: drop-request}, {type: drop-request, as: timeout}", Timeout, "edge-error+drop-request+drop-request"},
		{"{type: edge-error, status: [502]}, {type: drop-request}", ConnectionFailed, "edge-error+drop-request"},
		// Nothing comes back to lose once a proxy answered.
		{"{type: lost-response}, {type: edge-error, status: [503]}", HTTPError, "lost-response+edge-error"},
		// A reset comes before the answer, so it wins over losing it.
		{"{type: lost-response}, {type: reset}", ConnectionFailed, "lost-response+reset"},
		{"{type: latency, latency: 1h}, {type: lost-response}", LostResponse, "latency+lost-response"},
	}
	for _, tc := range tests {
		t.Run(tc.faults, func(t *testing.T) {
			r := faultAttempt(t, "stripe", tc.faults, "")
			if r.Outcome != tc.outcome || r.Fault != tc.fault {
				t.Errorf("outcome %s, fault %q; want %s, %q (error %q)", r.Outcome, r.Fault, tc.outcome, tc.fault, r.Error)
			}
		})
	}
}
