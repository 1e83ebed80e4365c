package main

import (
	"context"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/retrysim/retrysim/report"
	"github.com/retrysim/retrysim/report/output"
	"github.com/retrysim/retrysim/report/redact"
	"github.com/retrysim/retrysim/report/results"
	"github.com/retrysim/retrysim/simulator"
	"github.com/retrysim/retrysim/simulator/interrupt"
)

// resultsSink is the --results stream, kept by a second interrupt (its
// exit-now hook) until it is committed or aborted.
type resultsSink struct {
	*results.Stream
	unhook func()
}

// openResults opens the --results stream (see results.Open).
func openResults(path string, stdout io.Writer, sec *redact.Set) (*resultsSink, error) {
	s, err := results.Open(path, stdout, sec)
	if err != nil {
		return nil, err
	}
	return &resultsSink{Stream: s, unhook: interrupt.OnExitNow(s.ExitNow)}, nil
}

// commit commits the stream, which no interrupt needs to keep any more.
func (r *resultsSink) commit() error {
	r.unhook()
	return r.Commit()
}

// abort removes an uncommitted stream file.
func (r *resultsSink) abort() {
	r.unhook()
	r.Abort()
}

// runOutputs are where the records of run and proxy go: the --results
// stream (when asked for), the aggregator the report is made from, and the
// report's writer (stderr when the stream takes stdout).
type runOutputs struct {
	results   *resultsSink
	agg       *report.Aggregator
	reportOut io.Writer
}

// openOutputs opens the --results stream at path ("" for none) and the
// aggregator out plans; close, deferred, removes what was not committed.
func openOutputs(cmd *cobra.Command, path string, out *output.Plan) (*runOutputs, error) {
	o := &runOutputs{reportOut: cmd.OutOrStdout()}
	if path != "" {
		r, err := openResults(path, cmd.OutOrStdout(), secretsOf(cmd.Context()))
		if err != nil {
			return nil, badInput(fmt.Errorf("--results: %w", err))
		}
		o.results = r
		if path == "-" {
			o.reportOut = cmd.ErrOrStderr()
		}
	}
	o.agg = report.NewAggregator(report.WithTimeline(out.Keep), report.WithTTLs(out.TTLs))
	return o, nil
}

// sink is recordSink to these outputs.
func (o *runOutputs) sink(ctx context.Context, watch func(*simulator.Record)) simulator.Sink {
	return recordSink(secretsOf(ctx), o.results, o.agg, watch)
}

// finish commits the results stream and writes the report (see
// plan.writeReport and outputsDone).
func (o *runOutputs) finish(ctx context.Context, cmd *cobra.Command, p *plan) error {
	var commitErr error
	if o.results != nil {
		commitErr = o.results.commit()
	}
	return outputsDone(commitErr, p.writeReport(ctx, cmd, o.agg, o.reportOut))
}

// close removes the aggregator's spool, reporting a failure to err unless
// the command failed first, and then an uncommitted results stream.
func (o *runOutputs) close(err *error) {
	closeAggregator(o.agg, err)
	if o.results != nil {
		o.results.abort()
	}
}
