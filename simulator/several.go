package simulator

import (
	"cmp"
	"context"
	"errors"
	"sync"
)

// Prepare readies run i of several: its config (whose Sink RunSeveral
// sets) and what to do once the run is over, which is called even when
// Prepare fails.
type Prepare func(i int) (cfg Config, done func(), err error)

// RunSeveral runs n runs, readied by prepare, and hands their records to
// deliver in the order of the runs, one run's records after another's,
// whatever order the runs finish in. It returns the first run's error, in
// the runs' order.
//
// With together, the runs go at once, each with its own engine and so its
// own endpoint state: several providers take as long as the longest run,
// not all of them in turn. Otherwise (a dry run waits for nothing real; a
// handler process started per run on the same address) each run is
// readied, run and done with before the next is readied, and the runs
// stop when ctx ends. Either way a run stopped by a restart of its handler
// that failed (a RestartError) stops only itself: each run has a handler
// of its own, and the later runs go on.
func RunSeveral(ctx context.Context, n int, together bool, prepare Prepare, deliver Sink) error {
	if !together || n == 1 {
		var stopped error // the first run a failed restart stopped
		for i := range n {
			cfg, done, err := prepare(i)
			if err == nil {
				cfg.Sink = deliver
				_, err = Run(ctx, cfg)
			}
			done()
			if re := (*RestartError)(nil); errors.As(err, &re) {
				stopped, err = cmp.Or(stopped, err), nil
			}
			if err != nil {
				return err
			}
			if ctx.Err() != nil {
				break
			}
		}
		return stopped
	}
	cfgs := make([]Config, 0, n)
	for i := range n {
		cfg, done, err := prepare(i)
		defer done()
		if err != nil {
			return err
		}
		cfgs = append(cfgs, cfg)
	}
	rl := NewRelay(n, deliver)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range cfgs {
		cfgs[i].Sink = rl.Sink(i)
		wg.Go(func() {
			_, errs[i] = Run(ctx, cfgs[i])
			if err := rl.Finish(i); errs[i] == nil {
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
