package report_test

import (
	"strings"
	"testing"

	"github.com/retrysim/retrysim/report"
	"github.com/retrysim/retrysim/simulator"
)

// A replay's header counts its sends in words that agree with the number:
// one send is "1 send", more are "sends", whether scheduled or at once.
func TestReplayTextCountsSends(t *testing.T) {
	for _, tc := range []struct {
		times      int
		concurrent bool
		want       string
	}{
		{1, false, "1 send on stripe's retry schedule"},
		{3, false, "3 sends on stripe's retry schedule"},
		{1, true, "1 send at once"},
		{4, true, "4 sends at once"},
	} {
		r := &simulator.ReplayResult{Provider: "stripe", Policy: "stripe", DedupID: "evt_1", DedupField: "id", Times: tc.times, Concurrent: tc.concurrent}
		var b strings.Builder
		if err := report.WriteReplayText(&b, r, "http://127.0.0.1:1/", nil); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(b.String(), tc.want) {
			t.Errorf("times %d, concurrent %v: the header does not say %q:\n%s", tc.times, tc.concurrent, tc.want, b.String())
		}
	}
}

// Every reason a replay's verdict can have is decided once (Judge) and
// worded here: the line names the verdict the reason belongs to and what
// the user can do.
func TestReplayVerdictWordsEveryReason(t *testing.T) {
	sends := func(writes ...int) []simulator.ReplaySend {
		out := make([]simulator.ReplaySend, len(writes))
		for i, w := range writes {
			out[i] = simulator.ReplaySend{N: i + 1, Status: 200, Writes: w}
		}
		return out
	}
	for _, tc := range []struct {
		r      simulator.ReplayResult
		reason simulator.ReplayReason
		want   string
	}{
		{simulator.ReplayResult{EffectsKnown: true, After: 1, Sends: sends(1, 0)}, simulator.ReplayWroteOnce, "IDEMPOTENT: one write for 2 deliveries of evt_1"},
		{simulator.ReplayResult{EffectsKnown: true, Before: 1, After: 1, Sends: sends(0)}, simulator.ReplayProcessedBefore, "IDEMPOTENT: no write for 1 delivery of evt_1, which had been processed before"},
		{simulator.ReplayResult{EffectsKnown: true, After: 2, Sends: sends(1, 1)}, simulator.ReplayWroteMore, "NOT IDEMPOTENT: 2 writes for 2 deliveries of one event (evt_1)"},
		{simulator.ReplayResult{EffectsError: "boom", Sends: sends(-1)}, simulator.ReplayOracleFailed, "UNKNOWN: the effects oracle failed (boom)"},
		{simulator.ReplayResult{Sends: sends(-1)}, simulator.ReplayNoOracle, "pass Config.Effects for a verdict"},
		{simulator.ReplayResult{EffectsKnown: true, After: 1, HandlersRunning: 2, Sends: sends(1)}, simulator.ReplayHandlersRunning, "UNKNOWN: 2 handler call(s) cut off by the stripe timeout"},
		{simulator.ReplayResult{EffectsKnown: true, After: 1, EffectsUnsettled: true, SettleS: 1.25, Sends: sends(1)}, simulator.ReplayUnsettled, "so a write may be missing (effects read for 1.2s after the last send)"},
		{simulator.ReplayResult{EffectsKnown: true, Sends: sends(0, 0)}, simulator.ReplayNeverProcessed, "UNKNOWN: the handler never processed the event"},
	} {
		tc.r.Policy, tc.r.DedupID = "stripe", "evt_1"
		if got := tc.r.Judge().Reason; got != tc.reason {
			t.Errorf("%+v: reason %s, want %s", tc.r, got, tc.reason)
		}
		if got := report.ReplayVerdictLine(&tc.r, nil); !strings.Contains(got, tc.want) {
			t.Errorf("%s: %q, want it to say %q", tc.reason, got, tc.want)
		}
	}
}
