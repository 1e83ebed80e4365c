package report_test

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/retrysim/retrysim/report"
	"github.com/retrysim/retrysim/simulator"
)

// The reasons the provider sent again count the retries after attempts
// that never reached the handler, not only the duplicates.
func TestResentAfterUnreachedAttempts(t *testing.T) {
	s := newRecStream(2)
	// Event a: a connection that failed, then delivered (one retry, no
	// duplicate). Event b: the answer lost, then delivered (a duplicate).
	s.attempt(0, 1, 0, simulator.ConnectionFailed, 0, false, 0).attempt(0, 2, 5*time.Minute, simulator.Delivered, 200, true, ms).fate(0, simulator.FateDelivered)
	recs := lostResponse(s, 1, 5*time.Minute).end(map[string]int{"evt_a": 1, "evt_b": 2}, false)
	runs, err := report.Summarize(recs)
	if err != nil {
		t.Fatal(err)
	}
	r := runs[0]
	if r.ResentUnreached != 1 || r.Causes[simulator.LostResponse] != 1 {
		t.Errorf("resent after unreached %d, after lost answers %d; want 1 and 1", r.ResentUnreached, r.Causes[simulator.LostResponse])
	}
	var buf bytes.Buffer
	if err := report.WriteText(&buf, &report.Report{Runs: runs, Width: -1}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"why the provider sent again: 1× the answer was lost after your handler answered (lost_response); 1× the request never reached your handler",
		"your handler was reached 3 times by 4 attempts → 1 duplicate arrival in 1 event",
		"evt_b ×2",
	} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, buf.String())
		}
	}
}

// A run that already used flaky-network is not told to use it.
func TestNoDuplicateHintKnowsTheScenario(t *testing.T) {
	for _, tc := range []struct{ scenario, want, not string }{
		{"happy", `Config.Scenario "flaky-network"`, "raise Config.Events"},
		{"flaky-network", "raise Config.Events", `Config.Scenario "flaky-network"`},
	} {
		t.Run(tc.scenario, func(t *testing.T) {
			s := newRecStream(1)
			recs := s.attempt(0, 1, 0, simulator.Delivered, 200, true, ms).fate(0, simulator.FateDelivered).end(map[string]int{"evt_a": 1}, false)
			for i := range recs {
				recs[i].Scenario = tc.scenario
			}
			runs, err := report.Summarize(recs)
			if err != nil {
				t.Fatal(err)
			}
			line := runs[0].VerdictLine()
			if !strings.Contains(line, tc.want) || strings.Contains(line, tc.not) {
				t.Errorf("verdict %q: want %q, not %q", line, tc.want, tc.not)
			}
		})
	}
}

// The offenders are named worst first (the goldens show their full ids).
func TestOffendersWorstFirst(t *testing.T) {
	s := newRecStream(3)
	for seq := range 3 {
		lostResponse(s, seq, 5*time.Minute)
	}
	recs := s.end(map[string]int{"evt_a": 2, "evt_b": 2, "evt_c": 4}, false)
	runs, err := report.Summarize(recs)
	if err != nil {
		t.Fatal(err)
	}
	line := runs[0].VerdictLine()
	if !strings.Contains(line, "NOT IDEMPOTENT: evt_c ×4, evt_a ×2, evt_b ×2") {
		t.Errorf("verdict %q does not name the worst first", line)
	}
}
