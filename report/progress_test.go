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

// A black-hole run finishes no event until its schedules end, yet its bar
// advances with the virtual time it covers and the attempts it makes.
func TestProgressAdvancesBeforeEventsFinish(t *testing.T) {
	p := report.Progress{Over: time.Hour}
	start := t0
	// 10 events, 5 attempts each at most, a 9 h retry window: 10 h to cover.
	p.Add(simulator.Record{Kind: simulator.KindRun, Policy: "stripe", Time: t0, Start: &start, Events: 10, MaxAttempt: 5, WindowS: 9 * 3600})
	p.Add(simulator.Record{Kind: simulator.KindAttempt, N: 1, Time: t0.Add(5 * time.Hour)})
	if line := p.Line(10); !strings.Contains(line, " 50%") {
		t.Errorf("halfway through the virtual time with no event finished: %q, want 50%%", line)
	}
	for range 29 {
		p.Add(simulator.Record{Kind: simulator.KindAttempt, N: 2, Time: t0.Add(5 * time.Hour)})
	}
	if line := p.Line(10); !strings.Contains(line, " 60%") {
		t.Errorf("30 of at most 50 attempts made: %q, want 60%%", line)
	}
	for range 40 { // more than the most: the bar stops short of done
		p.Add(simulator.Record{Kind: simulator.KindAttempt, N: 3, Time: t0.Add(5 * time.Hour)})
	}
	if line := p.Line(10); !strings.Contains(line, " 99%") {
		t.Errorf("no event finished yet: %q, want 99%% at most", line)
	}
}
