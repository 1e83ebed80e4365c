package report_test

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/retrysim/retrysim/report"
	"github.com/retrysim/retrysim/simulator"
)

func TestProgressLine(t *testing.T) {
	var p report.Progress
	start := t0
	p.Add(simulator.Record{Kind: simulator.KindRun, Policy: "stripe", Time: t0, Start: &start, Events: 4})
	p.Add(simulator.Record{Kind: simulator.KindAttempt, N: 1, Time: t0.Add(time.Minute), Reached: true})
	p.Add(simulator.Record{Kind: simulator.KindAttempt, N: 2, Time: t0.Add(time.Hour), Reached: false})
	p.Add(simulator.Record{Kind: simulator.KindAttempt, N: 1, Time: t0.Add(90 * time.Minute), Reached: true})
	p.Add(simulator.Record{Kind: simulator.KindEvent})
	p.Add(simulator.Record{Kind: simulator.KindEvent})
	line := p.Line(10)
	for _, want := range []string{"stripe", "█████░░░░░", " 50%", "virtual +1h30m", "3 attempts", "2 arrivals"} {
		if !strings.Contains(line, want) {
			t.Errorf("progress line %q lacks %q", line, want)
		}
	}
}

// A run that ends before the delay draws nothing at all.
func TestProgressQuietForShortRuns(t *testing.T) {
	var p report.Progress
	var buf bytes.Buffer
	stop := p.Show(&buf, time.Hour, time.Millisecond)
	stop()
	stop() // stopping twice is harmless
	if buf.Len() != 0 {
		t.Errorf("a short run wrote %q", buf.String())
	}
}
