package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/retrysim/retrysim/report"
	"github.com/retrysim/retrysim/report/advice"
	"github.com/retrysim/retrysim/report/outfile"
	"github.com/retrysim/retrysim/report/output"
	"github.com/retrysim/retrysim/report/results"
)

// outputFlags are the flags that say how a report is written; run and
// report share them so that both print the same for the same records.
type outputFlags struct {
	format     string
	out        []string
	chart      string
	by         string
	logTime    bool
	ttls       string
	noTimeline bool
	verbose    bool
}

// add registers the flags that run does not already have.
func (o *outputFlags) add(fl *pflag.FlagSet) {
	fl.StringArrayVar(&o.out, "out", nil, "also write to FILE, in the format its extension names: .md, .json, .csv, .txt, .html (the report), .png or .svg (a chart); repeatable, and stdout keeps --format")
	fl.StringVar(&o.chart, "chart", report.ChartTimeline, "chart drawn for --out FILE.png|.svg: "+strings.Join(report.Charts(), ", ")+" (a file named after a chart, such as storm.png, draws that one)")
	o.by = report.ByEvent
	fl.BoolVar(&o.logTime, "log-time", false, "timeline chart: virtual time on a logarithmic axis")
	fl.BoolVarP(&o.verbose, "verbose", "v", false, "the full text report: the TTL tables, each forged request's answers, the response-time headroom and a sample of events' attempts, every kind of fate among them")
}

// addBy registers --by, for the commands whose runs may have several
// tenants (run, report; proxy's real deliveries come from their own
// senders, not from modelled tenants).
func (o *outputFlags) addBy(fl *pflag.FlagSet) {
	fl.StringVar(&o.by, "by", report.ByEvent, "timeline chart rows: event (one per event, a sample with every kind of fate) or tenant (one per tenant of a run of --tenants: its attempts, when its subscription was disabled, the events it lost)")
}

// validate checks the flags (see output.Request.Plan).
func (o *outputFlags) validate() (*output.Plan, []error) {
	return output.Request{
		Format: o.format, Files: o.out, Chart: o.chart, By: o.by, LogTime: o.logTime,
		TTLs: o.ttls, NoTimeline: o.noTimeline, Verbose: o.verbose,
	}.Plan(advice.Flag)
}

// writeOutput writes rep as out plans, the gates as JUnit to stdout when
// junit: a picture asked for a terminal is bad input (exit 2), an output
// that could not be written a failed write (exit 3).
func writeOutput(out *output.Plan, junit bool, stdout io.Writer, rep *report.Report) error {
	write := out.Write
	if junit {
		write = out.WriteJUnit
	}
	err := write(stdout, rep)
	var te *output.TerminalError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &te):
		return badInput(err)
	}
	return &exitError{code: exitWrite, err: err}
}

// outputsDone is how a command ends whose results stream was committed
// with commitErr and whose report ended with err: a results file that
// could not be written is an output that failed (exit 3), said beside
// whatever the report came to.
func outputsDone(commitErr, err error) error {
	if commitErr == nil {
		return err
	}
	commitErr = fmt.Errorf("--results: %w", commitErr)
	if err != nil {
		commitErr = errors.Join(commitErr, err)
	}
	return &exitError{code: exitWrite, err: commitErr}
}

// reportFlags are the report command's flags: how to write the report, and
// the gates to judge the saved runs by.
type reportFlags struct {
	outputFlags
	gateFlags
}

func newReportCmd() *cobra.Command {
	o := &reportFlags{}
	cmd := &cobra.Command{
		Use:   "report RESULTS.jsonl…|-",
		Short: "Re-render a report from a saved results stream",
		Long: `Report reads a results stream written by 'retrysim run --results FILE' (or - for
stdin) and writes its report in any format, exactly as run printed it for the same records
and the same report flags. A stream compressed with gzip or Zstandard (--results FILE.jsonl.gz
or .zst) is read as it is. Nothing is sent: the stream holds every attempt. With --fail-on
it judges the saved runs by the same gates as run, and exits 1 when one does not pass.
Given several streams (or a glob), they must be every shard of one run ('run --tenants N
--shard I/N'), as in 'retrysim report "shards/*.jsonl"': they are merged, streaming,
into the whole run's report (see docs/tenants.md).

Examples:
  retrysim run --provider stripe --results attempts.jsonl
  retrysim report attempts.jsonl --format markdown
  retrysim run --provider stripe --events 100000 --dry-run --results attempts.jsonl.zst
  retrysim report attempts.jsonl.zst --format json
  retrysim report attempts.jsonl --out timeline.png --log-time
  retrysim report attempts.jsonl --chart ttl --out ttl.svg
  retrysim report attempts.jsonl --verbose --out report.html --out storm.png --out timeline.svg
  retrysim report attempts.jsonl --fail-on duplicate-effects,lost-events --format junit > retrysim.xml
  retrysim run --provider stripe,shopify --results - | retrysim report - --format csv`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return oneArg("the results file written by 'retrysim run --results FILE' (or - for stdin)")(cmd, args)
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			paths, err := results.Paths(args)
			if err != nil {
				return badInput(err)
			}
			return runReport(cmd, o, paths)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&o.format, "format", report.FormatText, "report format: "+strings.Join(output.ReportFormats(), ", ")+" (junit reports the --fail-on gates)")
	fl.StringVar(&o.ttls, "ttl", "", ttlChoicesUsage())
	fl.BoolVar(&o.noTimeline, "no-timeline", false, "leave the per-event timeline out of the report")
	o.outputFlags.add(fl)
	o.outputFlags.addBy(fl)
	o.gateFlags.add(fl)
	return cmd
}

// runReport reads the results streams at paths (several: every shard of
// one run) and writes their report.
func runReport(cmd *cobra.Command, o *reportFlags, paths []string) (err error) {
	path := strings.Join(paths, ", ")
	st, err := loadConfig(cmd)
	if err != nil {
		return err
	}
	of := o.outputFlags
	junit := junitFormat(&of)
	out, errs := of.validate()
	gates, gateOpts, gateErrs := o.gateFlags.parse(junit)
	errs = append(errs, gateErrs...)
	out.AddConfiguredTTL(gateOpts.TTLConfigured)
	named := []outfile.Named{{Flag: "--config", Path: st.path}}
	for _, p := range paths {
		named = append(named, outfile.Named{Flag: "results", Path: p})
	}
	errs = append(errs, outfile.CheckDistinct(outPaths(o.out), named)...)
	streams, closeAll, openErrs := results.OpenAll(paths, cmd.InOrStdin())
	defer closeAll()
	errs = append(errs, openErrs...)
	if len(errs) > 0 {
		return badInput(errors.Join(errs...))
	}
	agg := report.NewAggregator(report.WithTimeline(out.Keep), report.WithTTLs(out.TTLs))
	defer closeAggregator(agg, &err)
	if err := results.Read(streams, agg.Add); err != nil {
		return badInput(fmt.Errorf("results %s: %w", path, err))
	}
	runs := agg.Runs()
	if len(runs) == 0 {
		return badInput(fmt.Errorf("results %s: no runs in it (expected the JSON Lines that 'retrysim run --results' writes)", path))
	}
	rep := out.Report(runs, report.TimeoutsOf(st.allPolicies()), gates, gateOpts)
	out.Notes = cmd.ErrOrStderr()
	if err := writeOutput(out, junit, cmd.OutOrStdout(), rep); err != nil {
		return err
	}
	return gateError(rep.Gates)
}

// closeAggregator removes the temporary file agg spooled the per-event
// timelines to (deferred, so an error or an interrupt removes it too), and
// reports a failure to unless the command failed first.
func closeAggregator(agg *report.Aggregator, err *error) {
	if cerr := agg.Close(); cerr != nil && *err == nil {
		*err = cerr
	}
}
