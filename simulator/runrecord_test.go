package simulator

import (
	"testing"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/retrysim/retrysim/policies/policytest"
	"github.com/retrysim/retrysim/scenarios/scenariotest"
)

// The run record carries what reports state about the run and cannot
// infer from attempts: the events' type, and the scenario's outage windows
// whole, however few attempts fell in them.
func TestRunRecordStatesEventTypeAndOutages(t *testing.T) {
	recs, _ := collect(t, Config{Policy: policytest.Lookup(t, "stripe"), Scenario: scenariotest.Lookup(t, "outage"), DryRun: true, Events: 2})
	run := recs[0]
	if run.Kind != KindRun {
		t.Fatalf("first record is %q, want the run record", run.Kind)
	}
	stripe := policytest.Lookup(t, "stripe")
	if want := stripe.Wire().DefaultEventType(); run.EventType != want || want == "" {
		t.Errorf("event type %q, want stripe's default %q", run.EventType, want)
	}
	// outage: from 10 minutes into the run for 2 hours.
	if len(run.Outages) != 1 || run.Outages[0] != [2]time.Duration{10 * time.Minute, 130 * time.Minute} {
		t.Errorf("outage windows %v, want [[10m 2h10m]]", run.Outages)
	}
}

// The records state as facts what the reports decide on: which attempts met
// an outage, what disabled the endpoint and by which rule, so that no
// report reads a fault's name or the engine's words.
func TestRecordsStateOutagesAndWhatDisabled(t *testing.T) {
	recs, _ := collect(t, Config{Policy: policytest.Lookup(t, "svix"), Scenario: scenariotest.Lookup(t, "outage-6h"), DryRun: true, Events: 3})
	run, end := recs[0], recs[len(recs)-1]
	if run.DisableFailingFor != 5*24*time.Hour || run.DisableN != 0 {
		t.Errorf("svix's rule: failing for %s, %d in a row; want 5 days, none", run.DisableFailingFor, run.DisableN)
	}
	met, inWindow := 0, 0
	for _, r := range recs {
		if r.Kind != KindAttempt {
			continue
		}
		at := r.Time.Sub(*run.Start)
		in := len(run.Outages) > 0 && at >= run.Outages[0][0] && at < run.Outages[0][1]
		if in {
			inWindow++
		}
		if r.Outage {
			met++
			if !in || r.Outcome != ConnectionFailed {
				t.Errorf("attempt at +%s (%s) met an outage outside its window %v", at, r.Outcome, run.Outages)
			}
		}
	}
	if met == 0 || met != inWindow {
		t.Errorf("%d attempts say they met the outage, %d fell in its window", met, inWindow)
	}
	if end.DisabledAt != nil {
		t.Errorf("svix disabled the endpoint in a 6-hour outage: %s", end.DisabledBy)
	}
	recs, _ = collect(t, Config{Policy: policytest.Lookup(t, "shopify"), Scenario: scenariotest.Lookup(t, "black-hole"), DryRun: true, Events: 12})
	if end := recs[len(recs)-1]; end.DisabledAt == nil || end.DisabledCause != DisabledByRule {
		t.Errorf("shopify into a black hole: disabled at %v by %q (%s), want by the rule", end.DisabledAt, end.DisabledCause, end.DisabledBy)
	}
}

// The run record says when the run really started, from the wall clock,
// beside its virtual start: a CI report dates the run by it.
func TestRunRecordStatesWallStart(t *testing.T) {
	wall := time.Date(2031, 7, 9, 14, 3, 5, 0, time.UTC)
	recs, _ := collect(t, Config{Policy: policytest.Lookup(t, "stripe"), Scenario: scenariotest.Lookup(t, "outage"), DryRun: true, Events: 2,
		WallClock: clockwork.NewFakeClockAt(wall)})
	run := recs[0]
	if run.WallStart == nil || !run.WallStart.Equal(wall) {
		t.Fatalf("run record's wall start %v, want the wall clock's %v", run.WallStart, wall)
	}
	if run.Start == nil || run.Start.Equal(wall) {
		t.Errorf("virtual start %v: want the virtual clock's, apart from the wall clock's", run.Start)
	}
	for _, r := range recs[1:] {
		if r.WallStart != nil {
			t.Errorf("%s record carries a wall start: only the run record does", r.Kind)
		}
	}
}
