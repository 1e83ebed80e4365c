package report_test

import (
	"strings"
	"testing"
	"time"

	"github.com/retrysim/retrysim/report"
	"github.com/retrysim/retrysim/simulator"
)

// The header names the policy with its summary when it has one, and says
// when the scenario was the default rather than a choice: its faults are
// in the figures, and someone who chose none should know where they came
// from.
func TestHeaderWords(t *testing.T) {
	for _, tc := range []struct {
		name            string
		summary         string
		defaultScenario bool
		text, md        string
		absent          []string
	}{
		{"summary and chosen scenario", "16 attempts over 3 days", false,
			"retrysim · stripe (16 attempts over 3 days) · test · seed 1 · 1 event\n",
			"## stripe · test · seed 1\n\n16 attempts over 3 days · 1 event · target:", []string{"default scenario"}},
		{"no summary", "", false,
			"retrysim · stripe · test · seed 1 · 1 event\n",
			"## stripe · test · seed 1\n\n1 event · target:", []string{"()", "\n · "}},
		{"default scenario", "16 attempts over 3 days", true,
			"retrysim · stripe (16 attempts over 3 days) · test (default scenario) · seed 1 · 1 event\n",
			"## stripe · test (default scenario) · seed 1\n", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newRecStream(1)
			s.recs[0].Summary, s.recs[0].DefaultScenario = tc.summary, tc.defaultScenario
			recs := s.attempt(0, 1, 0, simulator.Delivered, 200, true, time.Millisecond).fate(0, simulator.FateDelivered).end(nil, false)
			runs, err := report.Summarize(recs)
			if err != nil {
				t.Fatal(err)
			}
			rep := &report.Report{Runs: runs}
			text, md, _ := renderAll(t, rep)
			if !strings.HasPrefix(text, tc.text) {
				t.Errorf("text header:\n%s\nwant it to start %q", text, tc.text)
			}
			if !strings.Contains(md, tc.md) {
				t.Errorf("markdown lacks %q:\n%s", tc.md, md)
			}
			for _, no := range tc.absent {
				if strings.Contains(text, no) || strings.Contains(md, no) {
					t.Errorf("report says %q:\n%s\n%s", no, text, md)
				}
			}
		})
	}
}
