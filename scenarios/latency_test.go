package scenarios_test

import (
	"slices"
	"testing"
	"time"

	"github.com/retrysim/retrysim/scenarios"
	"github.com/retrysim/retrysim/scenarios/scenariotest"
	"github.com/retrysim/retrysim/simulator"
)

func TestLatencyOnAHandler(t *testing.T) {
	late := pair{simulator.Timeout, true}
	cases := []struct {
		name, scenario string
		want           []pair
		added          func(ms float64) bool
	}{
		{"fixed, under the timeout", "faults: [{type: latency, latency: 2s}]", []pair{delivered},
			func(ms float64) bool { return ms == 2000 }},
		{"past the timeout: a timeout after the handler did the work", "faults: [{type: latency, over_timeout: 5s, attempts: [1, 2]}]",
			[]pair{late, late, delivered}, func(ms float64) bool { return ms == 15000 || ms == 0 }},
		{"uniform", "faults: [{type: latency, distribution: uniform, min: 1s, max: 4s}]", []pair{delivered},
			func(ms float64) bool { return ms >= 1000 && ms <= 4000 }},
		{"pareto capped by max", "faults: [{type: latency, distribution: pareto, min: 1s, alpha: 1.2, max: 9s}]", []pair{delivered},
			func(ms float64) bool { return ms >= 1000 && ms <= 9000 }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := &logHandler{}
			r := runFault(t, testPolicy(t, ""), scenariotest.Faults(t, tc.scenario), h, 5)
			checkPairs(t, r, 5, same(tc.want...))
			checkArrivals(t, r, h)
			for _, a := range r.attempts {
				if !tc.added(float64(a.AddedLatency.Microseconds()) / 1000) {
					t.Errorf("attempt %d of event %d: added latency %s out of range", a.Attempt, a.Seq, a.AddedLatency)
				}
				if a.Outcome == simulator.Timeout && a.HandlerStatus != 200 {
					t.Errorf("late answer: handler_status %d, want the handler's 200 recorded", a.HandlerStatus)
				}
			}
		})
	}
}

// TestLatencyDistributions draws many latencies straight from the scenario
// and checks each distribution's shape and that the draws depend only on the
// seed and the attempt.
func TestLatencyDistributions(t *testing.T) {
	cases := []struct {
		name, fault string
		check       func(t *testing.T, median, p99, min time.Duration)
	}{
		{"fixed with jitter", "{type: latency, latency: 2s, jitter: 1s}", func(t *testing.T, median, p99, min time.Duration) {
			if min < time.Second || p99 > 3*time.Second || median < 1800*time.Millisecond || median > 2200*time.Millisecond {
				t.Errorf("min %s median %s p99 %s, want within 2s ± 1s, centred", min, median, p99)
			}
		}},
		{"normal", "{type: latency, distribution: normal, latency: 2s, stddev: 200ms}", func(t *testing.T, median, p99, _ time.Duration) {
			if median < 1900*time.Millisecond || median > 2100*time.Millisecond || p99 < 2300*time.Millisecond || p99 > 2700*time.Millisecond {
				t.Errorf("median %s p99 %s, want about 2s and 2.47s", median, p99)
			}
		}},
		{"lognormal: a heavy tail", "{type: latency, distribution: lognormal, latency: 300ms, sigma: 1}", func(t *testing.T, median, p99, _ time.Duration) {
			if median < 270*time.Millisecond || median > 330*time.Millisecond || p99 < 2*time.Second {
				t.Errorf("median %s p99 %s, want about 300ms and a p99 past 2s (about 3.1s)", median, p99)
			}
		}},
		{"pareto: never below min", "{type: latency, distribution: pareto, min: 100ms, alpha: 2}", func(t *testing.T, median, _, min time.Duration) {
			if min < 100*time.Millisecond || median < 130*time.Millisecond || median > 155*time.Millisecond {
				t.Errorf("min %s median %s, want at least 100ms and a median about 141ms", min, median)
			}
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := scenariotest.Faults(t, "faults: ["+tc.fault+"]")
			draw := func(seed uint64) []time.Duration {
				var out []time.Duration
				for ev := range 2000 {
					a := s.Decide(seed, scenarios.Context{Event: ev, Attempt: 1, Timeout: 10 * time.Second})
					out = append(out, a.Latency)
				}
				return out
			}
			got := draw(3)
			if again := draw(3); !slices.Equal(got, again) {
				t.Fatal("the same seed drew different latencies")
			}
			if other := draw(4); slices.Equal(got, other) {
				t.Fatal("another seed drew the same latencies")
			}
			slices.Sort(got)
			tc.check(t, got[len(got)/2], got[len(got)*99/100], got[0])
		})
	}
}
