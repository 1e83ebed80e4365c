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
		"why the provider sent again: 1× the answer was lost after your handler answered (lost_response); 1 retry after 1 attempt that never reached your handler (connection_failed 1): not duplicates",
		"your handler was reached 3 times by 4 attempts → 1 duplicate arrival in 1 event",
		"evt_b ×2",
	} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, buf.String())
		}
	}
}

// A run with no duplicate is told how to get one from what it saw, never
// from its scenario's name: more events when it lost answers whose
// retries did not reach the handler; else a scenario with lost answers
// and enough events, whatever the scenario was called.
func TestNoDuplicateHintFromWhatTheRunSaw(t *testing.T) {
	for _, tc := range []struct {
		name, scenario string
		lost           bool
		want, not      string
	}{
		{"nothing lost", "happy", false, `no answer was lost in this run; a scenario with lost answers does, given enough events: Config.Scenario "flaky-network"`, "raise Config.Events"},
		{"nothing lost under flaky-network's name", "flaky-network", false, `no answer was lost in this run; a scenario with lost answers does, given enough events: Config.Scenario "flaky-network"`, "raise Config.Events"},
		{"an answer lost, its retry refused on the way", "my-own", true, "1 answer was lost, but no retry reached your handler: more events give lost answers more chances: raise Config.Events", `Config.Scenario`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newRecStream(1)
			if tc.lost {
				s.attempt(0, 1, 0, simulator.LostResponse, 200, true, ms).attempt(0, 2, time.Minute, simulator.ConnectionFailed, 0, false, 0)
			} else {
				s.attempt(0, 1, 0, simulator.Delivered, 200, true, ms)
			}
			recs := s.fate(0, simulator.FateDelivered).end(map[string]int{"evt_a": 1}, false)
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

// A black hole's failures read as one count in one unit: the retries after
// requests that never reached the handler are counted as retries, beside
// the attempts that never reached it by the outcome the outcomes line
// gives them (timeout, not "connection_failed"), so 4 retries and 6
// timeouts do not read as two counts of one thing.
func TestUnreachedRetriesSayTheirUnit(t *testing.T) {
	s := newRecStream(2)
	for seq := range 2 {
		for n := 1; n <= 3; n++ {
			s.attempt(seq, n, time.Duration(n-1)*time.Hour, simulator.Timeout, 0, false, 0)
		}
		s.fate(seq, simulator.FateExhausted)
	}
	runs, err := report.Summarize(s.end(map[string]int{}, false))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := report.WriteText(&buf, &report.Report{Runs: runs, Width: -1}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"why the provider sent again: 4 retries after 6 attempts that never reached your handler (timeout 6): not duplicates",
		"6 attempts: timeout 6",
	} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, buf.String())
		}
	}
	if strings.Contains(buf.String(), "connection_failed") {
		t.Errorf("the text names connection_failed, which no attempt had:\n%s", buf.String())
	}
}
