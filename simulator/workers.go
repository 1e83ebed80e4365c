package simulator

import (
	"context"
	"sync"
)

// workers perform the attempts of a wave concurrently. They live as long as
// the run, so a run of thousands of waves does not start (and grow the
// stacks of) goroutines wave after wave; each has its own Decider.
type workers struct {
	jobs  chan int       // indexes into wave
	wave  []due          // the wave being performed
	outs  []outcome      // its outcomes, by index
	busy  sync.WaitGroup // attempts of the wave not yet performed
	alive sync.WaitGroup // workers not yet stopped
}

// start starts n workers performing e's attempts.
func (w *workers) start(ctx context.Context, e *engine, n int) {
	w.jobs = make(chan int, n)
	for range n {
		dec := e.cfg.Scenario.Decider()
		w.alive.Go(func() {
			for i := range w.jobs {
				if ctx.Err() != nil {
					w.outs[i] = outcome{unsent: true}
				} else {
					e.attempt(ctx, &w.wave[i], dec, &w.outs[i])
				}
				w.busy.Done()
			}
		})
	}
}

// perform performs every attempt of wave, writing outcome i to outs[i], and
// returns once all are done.
func (w *workers) perform(wave []due, outs []outcome) {
	w.wave, w.outs = wave, outs
	w.busy.Add(len(wave))
	for i := range wave {
		w.jobs <- i
	}
	w.busy.Wait()
	w.wave, w.outs = nil, nil
}

// stop stops the workers, if started, and waits for them to exit.
func (w *workers) stop() {
	if w.jobs != nil {
		close(w.jobs)
		w.alive.Wait()
		w.jobs = nil
	}
}
