package report_test

import (
	"strings"
	"testing"
	"time"

	"github.com/retrysim/retrysim/report"
	"github.com/retrysim/retrysim/simulator"
)

// When the handler's only answer was cut off at the timeout, the advice
// does not give a "slowest answer" of 0.0ms: no answer came to measure.
func TestNoSlowestAnswerWithoutAnAnswer(t *testing.T) {
	s := newRecStream(1)
	recs := s.attempt(0, 1, 0, simulator.Timeout, 0, true, 30*time.Second).fate(0, simulator.FateExhausted).end(nil, false)
	runs, err := report.Summarize(recs)
	if err != nil {
		t.Fatal(err)
	}
	text, md, _ := renderAll(t, &report.Report{Runs: runs, Width: -1, Timeouts: []report.Timeout{{Policy: "slack", Timeout: 3 * time.Second}}})
	for _, out := range []string{text, md} {
		if strings.Contains(out, "(0.0ms)") || strings.Contains(out, "slowest answer (0") {
			t.Errorf("the report times an answer that never came:\n%s", out)
		}
	}
	if !strings.Contains(text, "no answer within 30s") {
		t.Errorf("the report does not say the handler gave no answer in time:\n%s", text)
	}
}
