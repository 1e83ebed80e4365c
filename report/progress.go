package report

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/retrysim/retrysim/simulator"
)

// Progress follows a run's records for a progress line: the virtual time
// covered, attempts made and arrivals at the handler. It is safe to Add
// from the engine's goroutine while another draws.
type Progress struct {
	// Over is the span of virtual time the events' first attempts are
	// spread over (the run's --over): with the policy's retry window it
	// says how much virtual time the run can cover.
	Over time.Duration

	mu       sync.Mutex
	window   time.Duration
	most     int // attempts the run can make: every event to its last
	policy   string
	start    time.Time
	now      time.Time
	planned  int
	done     int
	attempts int
	arrivals int
}

// Add folds one record into the progress.
func (p *Progress) Add(rec *simulator.Record) {
	p.mu.Lock()
	defer p.mu.Unlock()
	switch rec.Kind {
	case simulator.KindRun:
		p.policy = rec.Policy
		p.start, p.now = rec.Time, rec.Time
		p.planned, p.done = rec.Events, 0
		p.window = rec.Window
		p.most = rec.Events * rec.MaxAttempt
		p.attempts, p.arrivals = 0, 0
	case simulator.KindAttempt:
		p.attempts++
		if rec.Reached {
			p.arrivals++
		}
		if rec.Time.After(p.now) {
			p.now = rec.Time
		}
	case simulator.KindEvent:
		p.done++
	}
}

// Line is the progress line: a bar, the virtual time covered, attempts
// and arrivals. The bar is the furthest of three measures: the events
// finished, the virtual time covered of what the run can cover (Over and
// the policy's retry window), and the attempts made of the most the run
// can make. A run whose events all fail to the end of their schedules (a
// black hole) finishes none until the last moments, but its time and
// attempts advance all along.
func (p *Progress) Line(width int) string {
	p.mu.Lock()
	defer p.mu.Unlock()
	frac := 0.0
	if p.planned > 0 {
		frac = float64(p.done) / float64(p.planned)
	}
	if span := p.Over + p.window; span > 0 && frac < 1 {
		frac = max(frac, min(0.99, float64(p.now.Sub(p.start))/float64(span)))
	}
	if p.most > 0 && frac < 1 {
		frac = max(frac, min(0.99, float64(p.attempts)/float64(p.most)))
	}
	filled := int(frac * float64(width))
	bar := strings.Repeat("█", filled) + strings.Repeat("░", width-filled)
	covered := p.now.Sub(p.start).Round(time.Second)
	if covered > time.Hour {
		covered = covered.Round(time.Minute)
	}
	return fmt.Sprintf("%s %s %3.0f%% · virtual +%s · %s · %s", p.policy, bar, frac*100,
		dur(covered), counted(p.attempts, "attempt", "attempts"), counted(p.arrivals, "arrival", "arrivals"))
}

// Show redraws the progress line on w (a terminal) every tick, starting
// only once the run has lasted longer than after, and returns a function
// that stops it and clears the line. Nothing is written for a run shorter
// than after.
func (p *Progress) Show(w io.Writer, after, every time.Duration) (stop func()) {
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		delay := time.NewTimer(after)
		defer delay.Stop()
		select {
		case <-done:
			return
		case <-delay.C:
		}
		tick := time.NewTicker(every)
		defer tick.Stop()
		for {
			fmt.Fprintf(w, "\r%s\x1b[K", p.Line(24))
			select {
			case <-done:
				fmt.Fprint(w, "\r\x1b[K")
				return
			case <-tick.C:
			}
		}
	}()
	var once sync.Once
	return func() {
		once.Do(func() {
			close(done)
			<-finished
		})
	}
}
