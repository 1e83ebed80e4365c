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
	rl := simulator.NewRelay(len(cfgs), deliver)
	errs := make([]error, len(cfgs))
	var wg sync.WaitGroup
	for i := range cfgs {
		cfgs[i].Sink = rl.Sink(i)
		wg.Go(func() {
			errs[i] = runSim(ctx, cfgs[i])
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
