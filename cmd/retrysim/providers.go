package main

import (
	"context"
	"errors"
	"io"

	"github.com/retrysim/retrysim/simulator"
)

// runProviders runs every policy of the plan (simulator.RunSeveral) and
// hands their records to deliver in the order of the plan's policies. The
// runs go at once, but for a dry run, which waits for nothing real, and
// --exec, which starts one handler process per run on the same address.
func runProviders(ctx context.Context, stderr io.Writer, f *runFlags, p *plan, deliver simulator.Sink) error {
	together := !f.dryRun && f.exec == ""
	err := simulator.RunSeveral(ctx, len(p.policies), together, func(i int) (simulator.Config, func(), error) {
		return prepareOne(ctx, stderr, f, p, p.policies[i])
	}, deliver)
	if ee := (*exitError)(nil); errors.Is(err, simulator.ErrConfig) && !errors.As(err, &ee) {
		return badInput(err)
	}
	return err
}
