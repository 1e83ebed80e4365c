package report_test

import (
	"strings"
	"testing"
	"time"

	"github.com/retrysim/retrysim/report"
	"github.com/retrysim/retrysim/simulator"
)

// A sentence about one thing speaks of it in the singular, and one about
// several in the plural: "1 event was never delivered … it is gone", "2
// events were never delivered … they are gone".
func TestSentencesAgreeWithTheirCount(t *testing.T) {
	lost := func(events int) *report.Report {
		s := newRecStream(events)
		for seq := range events {
			s.attempt(seq, 1, 0, simulator.HTTPError, 500, true, ms)
			s.fate(seq, simulator.FateExhausted)
		}
		runs, err := report.Summarize(s.end(nil, false))
		if err != nil {
			t.Fatal(err)
		}
		return &report.Report{Runs: runs, Width: -1}
	}
	for _, tc := range []struct {
		events int
		want   []string
	}{
		{1, []string{"delivered 0/1 event ·", "1 event was never delivered", "the failure it met", "it is gone unless someone resends it by hand"}},
		{2, []string{"delivered 0/2 events ·", "2 events were never delivered", "the failure they met", "they are gone unless someone resends them by hand"}},
	} {
		text, _, _ := renderAll(t, lost(tc.events))
		for _, want := range tc.want {
			if !strings.Contains(text, want) {
				t.Errorf("%d lost: the text report does not say %q:\n%s", tc.events, want, text)
			}
		}
	}
	// One event processed twice: one extra side effect.
	twice := lostResponse(newRecStream(1), 0, time.Minute).end(map[string]int{"evt_a": 2}, false)
	runs, err := report.Summarize(twice)
	if err != nil {
		t.Fatal(err)
	}
	if line, want := runs[0].VerdictLine(), "1 event processed more than once (1 extra side effect)"; !strings.Contains(line, want) {
		t.Errorf("verdict %q does not say %q", line, want)
	}
}
