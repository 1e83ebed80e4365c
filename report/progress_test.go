package report_test

import (
	"bytes"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/retrysim/retrysim/report"
	"github.com/retrysim/retrysim/simulator"
)

func TestProgressLine(t *testing.T) {
	var p report.Progress
	start := t0
	p.Add(&simulator.Record{Kind: simulator.KindRun, Policy: "stripe", Time: t0, RunFacts: simulator.RunFacts{Start: &start, Events: 4}})
	p.Add(&simulator.Record{Kind: simulator.KindAttempt, Attempt: 1, Time: t0.Add(time.Minute), Answer: simulator.Answer{Reached: true}})
	p.Add(&simulator.Record{Kind: simulator.KindAttempt, Attempt: 2, Time: t0.Add(time.Hour), Answer: simulator.Answer{Reached: false}})
	p.Add(&simulator.Record{Kind: simulator.KindAttempt, Attempt: 1, Time: t0.Add(90 * time.Minute), Answer: simulator.Answer{Reached: true}})
	p.Add(&simulator.Record{Kind: simulator.KindEvent})
	p.Add(&simulator.Record{Kind: simulator.KindEvent})
	line := p.Line(10)
	for _, want := range []string{"stripe", "█████░░░░░", " 50%", "virtual +1h30m", "3 attempts", "2 arrivals"} {
		if !strings.Contains(line, want) {
			t.Errorf("progress line %q lacks %q", line, want)
		}
	}
}

// Show draws nothing for a run that ends before the delay; for one that
// lasts longer it draws the line at once, redraws it as records come in, and
// clears it when stopped. Both runs start the same way; only the delay
// differs.
func TestProgressShowsOnlyLongRuns(t *testing.T) {
	start := t0
	begin := func() *report.Progress {
		p := &report.Progress{}
		p.Add(&simulator.Record{Kind: simulator.KindRun, Policy: "stripe", Time: t0, RunFacts: simulator.RunFacts{Start: &start, Events: 4}})
		return p
	}
	t.Run("short", func(t *testing.T) {
		var term terminal
		stop := begin().Show(&term, time.Hour, time.Millisecond)
		stop()
		stop() // stopping twice is harmless
		if out := term.String(); out != "" {
			t.Errorf("a run shorter than the delay wrote %q", out)
		}
	})
	t.Run("long", func(t *testing.T) {
		var term terminal
		p := begin()
		stop := p.Show(&term, 0, time.Millisecond)
		term.waitFor(t, "stripe ")
		p.Add(&simulator.Record{Kind: simulator.KindAttempt, Attempt: 1, Time: t0.Add(time.Minute), Answer: simulator.Answer{Reached: true}})
		term.waitFor(t, "virtual +1m ·")
		stop()
		stop()
		out := term.String()
		if !strings.HasPrefix(out, "\r") || !strings.HasSuffix(out, "\r\x1b[K") {
			t.Errorf("the line is not drawn from the start of the line and cleared at the end: %q", out)
		}
	})
}

// terminal stands for the terminal Show draws on: it keeps what is written,
// and waitFor lets a test wait for a drawing without guessing how long it
// takes.
type terminal struct {
	mu    sync.Mutex
	buf   bytes.Buffer
	wrote chan struct{}
}

func (w *terminal) Write(b []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.init()
	select {
	case w.wrote <- struct{}{}:
	default:
	}
	return w.buf.Write(b)
}

func (w *terminal) init() {
	if w.wrote == nil {
		w.wrote = make(chan struct{}, 1)
	}
}

// String is everything written so far.
func (w *terminal) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}

// waitFor waits until what was written contains want. A working Show draws
// within milliseconds; the guard only ends the test when it draws nothing.
func (w *terminal) waitFor(t *testing.T, want string) {
	t.Helper()
	w.mu.Lock()
	w.init()
	wrote := w.wrote
	w.mu.Unlock()
	guard := time.After(20 * time.Second)
	for !strings.Contains(w.String(), want) {
		select {
		case <-wrote:
		case <-guard:
			out := w.String()
			t.Fatalf("the progress line never showed %q; the last drawing: %q", want, out[strings.LastIndex(out, "\r")+1:])
		}
	}
}

// A black-hole run finishes no event until its schedules end, yet its bar
// advances with the virtual time it covers and the attempts it makes.
func TestProgressAdvancesBeforeEventsFinish(t *testing.T) {
	p := report.Progress{Over: time.Hour}
	start := t0
	// 10 events, 5 attempts each at most, a 9 h retry window: 10 h to cover.
	p.Add(&simulator.Record{Kind: simulator.KindRun, Policy: "stripe", Time: t0, RunFacts: simulator.RunFacts{Start: &start, Events: 10, MaxAttempt: 5, Window: 9 * time.Hour}})
	p.Add(&simulator.Record{Kind: simulator.KindAttempt, Attempt: 1, Time: t0.Add(5 * time.Hour)})
	if line := p.Line(10); !strings.Contains(line, " 50%") {
		t.Errorf("halfway through the virtual time with no event finished: %q, want 50%%", line)
	}
	for range 29 {
		p.Add(&simulator.Record{Kind: simulator.KindAttempt, Attempt: 2, Time: t0.Add(5 * time.Hour)})
	}
	if line := p.Line(10); !strings.Contains(line, " 60%") {
		t.Errorf("30 of at most 50 attempts made: %q, want 60%%", line)
	}
	for range 40 { // more than the most: the bar stops short of done
		p.Add(&simulator.Record{Kind: simulator.KindAttempt, Attempt: 3, Time: t0.Add(5 * time.Hour)})
	}
	if line := p.Line(10); !strings.Contains(line, " 99%") {
		t.Errorf("no event finished yet: %q, want 99%% at most", line)
	}
}
