package scenarios_test

import (
	"testing"
	"time"

	"github.com/retrysim/retrysim/scenarios"
	"github.com/retrysim/retrysim/scenarios/scenariotest"
)

// A provider outage acts only inside its window: lost drops the attempt at
// the provider, burst holds it until the window ends.
func TestProviderOutage(t *testing.T) {
	for _, tc := range []struct {
		backlog string
		at      time.Duration
		drop    bool
		hold    time.Duration
	}{
		{"lost", 5 * time.Minute, false, 0},
		{"lost", 15 * time.Minute, true, 0},
		{"burst", 15 * time.Minute, false, 45 * time.Minute},
		{"burst", time.Hour + 10*time.Minute, false, 0},
	} {
		sc := scenariotest.Faults(t, "faults: [{type: provider-outage, start: 10m, duration: 50m, backlog: "+tc.backlog+"}]")
		a := sc.Decide(1, scenarios.Context{Event: 0, Attempt: 1, At: tc.at})
		if a.ProviderDrop != tc.drop || a.Hold != tc.hold || a.Reaches() == (tc.drop || tc.hold > 0) {
			t.Errorf("%s at %s: drop %t, hold %s; want %t, %s", tc.backlog, tc.at, a.ProviderDrop, a.Hold, tc.drop, tc.hold)
		}
	}
	if _, err := scenarios.Decode("t.yaml", []byte("name: t\nfaults: [{type: provider-outage, start: 1m, duration: 1m, backlog: later}]")); err == nil {
		t.Error("backlog: later accepted")
	}
}
