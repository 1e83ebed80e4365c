package main

import (
	"context"
	"io"
	"sync"

	"github.com/retrysim/retrysim/simulator"
)

// runProviders runs every policy of the plan and hands their records to
// deliver in the order of the plan's policies, one policy's records after
// another's, whatever order the runs finish in.
//
// The runs go at once, each with its own engine and so its own endpoint
// state: a command with two providers lasts as long as the longer run, not
// the two together. A dry run waits for nothing real, and --exec starts one
// handler process per run on the same address, so those run one after
// another.
func runProviders(ctx context.Context, stderr io.Writer, f *runFlags, p *plan, deliver simulator.Sink) error {
	if f.dryRun || f.exec != "" || len(p.policies) == 1 {
		for _, pol := range p.policies {
			cfg, cleanup, err := prepareOne(ctx, stderr, f, p, pol)
			if err == nil {
				cfg.Sink = deliver
				err = runSim(ctx, cfg)
			}
			cleanup()
			if err != nil {
				return err
			}
			if ctx.Err() != nil {
				break
			}
		}
		return nil
	}
	cfgs := make([]simulator.Config, 0, len(p.policies))
	for _, pol := range p.policies {
		cfg, cleanup, err := prepareOne(ctx, stderr, f, p, pol)
		defer cleanup()
		if err != nil {
			return err
		}
		cfgs = append(cfgs, cfg)
	}
	rl := newRelay(len(cfgs), deliver)
	errs := make([]error, len(cfgs))
	var wg sync.WaitGroup
	for i := range cfgs {
		cfgs[i].Sink = func(r *simulator.Record) error { return rl.add(i, r) }
		wg.Go(func() {
			errs[i] = runSim(ctx, cfgs[i])
			if err := rl.finish(i); errs[i] == nil {
				errs[i] = err
			}
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// relay passes the records of runs going at once to one sink in run order:
// the records of the run whose turn it is go straight through; the others'
// wait in memory until the runs before them have finished.
type relay struct {
	mu      sync.Mutex
	deliver simulator.Sink
	turn    int // the run whose records go straight through
	held    [][]simulator.Record
	over    []bool
	err     error // the first error of deliver: every run stops on it
}

func newRelay(n int, deliver simulator.Sink) *relay {
	return &relay{deliver: deliver, held: make([][]simulator.Record, n), over: make([]bool, n)}
}

// add takes one record of run i; one that must wait is copied.
func (r *relay) add(i int, rec *simulator.Record) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.err != nil {
		return r.err
	}
	if i != r.turn {
		r.held[i] = append(r.held[i], *rec)
		return nil
	}
	r.err = r.deliver(rec)
	return r.err
}

// finish notes that run i has sent its last record and passes on the
// records of the runs whose turn comes.
func (r *relay) finish(i int) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.over[i] = true
	for r.turn < len(r.over) && r.over[r.turn] {
		r.turn++
		if r.turn == len(r.over) {
			break
		}
		for k := range r.held[r.turn] {
			if r.err == nil {
				r.err = r.deliver(&r.held[r.turn][k])
			}
		}
		r.held[r.turn] = nil
	}
	return r.err
}
