package scenarios_test

import (
	"testing"
	"time"

	"github.com/retrysim/retrysim/policies"
	"github.com/retrysim/retrysim/scenarios"
	"github.com/retrysim/retrysim/scenarios/scenariotest"
)

// A slow provider pipeline delays first attempts, each by its own delay
// within [min, max), once; retries and held attempts go at once.
func TestProviderLatency(t *testing.T) {
	sc := scenariotest.Faults(t, "faults: [{type: provider-latency, start: 0s, duration: 1h, min: 5s, max: 160s}]")
	seen := map[time.Duration]bool{}
	for ev := range 20 {
		r := policies.Key(1, uint64(ev), 0)
		a := sc.Decide(1, scenarios.Context{Event: ev, Attempt: 1, At: time.Minute, Rand: &r})
		if a.Hold < 5*time.Second || a.Hold >= 160*time.Second {
			t.Errorf("event %d held %s; want 5s to 160s", ev, a.Hold)
		}
		seen[a.Hold] = true
		if a := sc.Decide(1, scenarios.Context{Event: ev, Attempt: 1, At: time.Minute, Held: true}); a.Hold != 0 || !a.Late || a.Fault() != "provider-latency" {
			t.Errorf("event %d once held: hold %s, late %t, fault %q; want sent now, late, named", ev, a.Hold, a.Late, a.Fault())
		}
		if a := sc.Decide(1, scenarios.Context{Event: ev, Attempt: 2, At: time.Minute}); a.Hold != 0 {
			t.Errorf("event %d: a retry held %s", ev, a.Hold)
		}
	}
	if len(seen) < 10 {
		t.Errorf("%d different delays for 20 events; want each its own", len(seen))
	}
}
