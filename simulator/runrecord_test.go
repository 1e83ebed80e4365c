package simulator

import (
	"testing"

	"github.com/retrysim/retrysim/scenarios/scenariotest"
)

// The run record carries what reports state about the run and cannot
// infer from attempts: the events' type, and the scenario's outage windows
// whole, however few attempts fell in them.
func TestRunRecordStatesEventTypeAndOutages(t *testing.T) {
	recs, _ := collect(t, Config{Policy: mustPolicy(t, "stripe"), Scenario: scenariotest.Lookup(t, "outage"), DryRun: true, Events: 2})
	run := recs[0]
	if run.Kind != KindRun {
		t.Fatalf("first record is %q, want the run record", run.Kind)
	}
	stripe := mustPolicy(t, "stripe")
	if want := stripe.Wire().DefaultEventType(); run.EventType != want || want == "" {
		t.Errorf("event type %q, want stripe's default %q", run.EventType, want)
	}
	// outage: from 10 minutes into the run for 2 hours.
	if len(run.OutagesS) != 1 || run.OutagesS[0] != [2]float64{600, 7800} {
		t.Errorf("outage windows %v, want [[600 7800]]", run.OutagesS)
	}
}
