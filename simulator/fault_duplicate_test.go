package simulator

import (
	"testing"
	"time"

	"github.com/retrysim/retrysim/policies/policytest"
	"github.com/retrysim/retrysim/scenarios/scenariotest"
)

// A duplicated attempt is two requests in the handler, recorded as the
// attempt and its copy.
func TestDuplicatedAttempt(t *testing.T) {
	srv := ok200(t)
	sc := scenariotest.Faults(t, "faults: [{type: duplicate, attempts: [1]}]\n")
	recs, res := collect(t, Config{Policy: policytest.Lookup(t, "stripe"), Scenario: sc, Events: 1, Over: time.Minute, Seed: 1, RunID: "test", URL: srv.URL})
	var copies []int
	for _, r := range attempts(recs) {
		if !r.Reached || r.Fault != "duplicate" {
			t.Errorf("attempt %+v: want a duplicate that reached the handler", r)
		}
		copies = append(copies, r.Copy)
	}
	if len(copies) != 2 || copies[0] == copies[1] || res.Delivered != 1 {
		t.Errorf("copies %v, delivered %d; want the attempt and one copy of it, one event delivered", copies, res.Delivered)
	}
}
