package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"golang.org/x/term"

	"github.com/retrysim/retrysim/report"
	"github.com/retrysim/retrysim/report/advice"
	"github.com/retrysim/retrysim/report/outfile"
	"github.com/retrysim/retrysim/report/redact"
	"github.com/retrysim/retrysim/simulator"
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
	fl.StringVar(&o.by, "by", report.ByEvent, "timeline chart rows: event (one per event, a sample with every kind of fate) or tenant (one per tenant of a run of --tenants: its attempts, when its subscription was disabled, the events it lost)")
	fl.BoolVar(&o.logTime, "log-time", false, "timeline chart: virtual time on a logarithmic axis")
	fl.BoolVarP(&o.verbose, "verbose", "v", false, "the full text report: the TTL table, the response-time headroom and every event's attempts")
}

// outFile is one --out file and the format its extension names.
type outFile struct {
	path, format string
}

// output is validated outputFlags.
type output struct {
	format  string    // what goes to stdout
	files   []outFile // --out, in the order given
	chart   report.ChartOptions
	ttls    []time.Duration
	keep    int
	verbose bool
	secrets *redact.Set // redacted from a report written to --out
	notes   io.Writer   // where an output skipped is said (stderr)
}

// validate checks the flags. --format and --out never disagree: stdout
// keeps --format, and each --out file takes the format its name says.
func (o *outputFlags) validate() (*output, []error) {
	var errs []error
	out := &output{format: o.format, verbose: o.verbose}
	// junit has become text by now (junitFormat).
	if err := formatFlag(o.format, reportFormats()); err != nil {
		errs = append(errs, err)
	}
	var outErrs []error
	out.files, outErrs = outFlag(o.out, "", nil)
	errs = append(errs, outErrs...)
	if !slices.Contains(report.Charts(), o.chart) {
		errs = append(errs, fmt.Errorf("--chart: %q is not a chart (valid: %s)", o.chart, strings.Join(report.Charts(), ", ")))
	}
	switch o.by {
	case report.ByEvent, report.ByTenant:
	case report.ByProvider:
		errs = append(errs, errors.New("--by provider: no longer drawn: one row per provider merged every event's marks into solid bars; compare providers with --chart storm (their attempts over time), or keep --by event: its rows are a sample of each provider's events with every kind of fate"))
	default:
		errs = append(errs, fmt.Errorf("--by: %q is not a row kind (valid: event, tenant)", o.by))
	}
	if o.ttls != "" {
		var err error
		if out.ttls, err = parseTTLs(o.ttls); err != nil {
			errs = append(errs, err)
		}
	}
	out.chart = report.ChartOptions{Chart: o.chart, By: o.by, Log: o.logTime}
	if len(out.ttls) > 0 {
		// The timeline draws the first TTL asked about, so a team can see
		// what its own choice lets through.
		out.chart.TTL = out.ttls[0]
	}
	out.keep = report.Keep(out.format, false, o.noTimeline)
	for _, f := range out.files {
		if k := report.Keep(f.format, false, o.noTimeline); k < 0 || (out.keep >= 0 && k > out.keep) {
			out.keep = k
		}
	}
	return out, errs
}

// timeline is how many events' timelines the text shows.
func (o *output) timeline() int {
	if o.keep == 0 {
		return 0
	}
	return report.DefaultTimeline
}

// write renders the report: every --out file in the format its extension
// names, the pictures first so the Markdown and HTML can show them, then
// the report in --format to stdout. Each output is written or fails on its
// own: one that fails (a full disk) is named in the error, exit 3, and
// the others are written all the same. A chart with nothing to draw (no
// attempt was sent) is skipped with a note on o.notes, not a failure.
func (o *output) write(stdout io.Writer, rep *report.Report) error {
	rep.Verbose = o.verbose
	var failed []error
	for _, f := range o.files {
		if !report.IsChart(f.format) {
			continue
		}
		opts := o.chart
		opts.Chart = chartFor(f.path, o.chart.Chart)
		err := outfile.Write(f.path, func(w io.Writer) error { return report.WriteChart(w, rep, f.format, opts) })
		switch {
		case errors.Is(err, report.ErrNoData):
			o.note("--out %s: not written: %v", f.path, err)
			continue
		case err != nil:
			failed = append(failed, fmt.Errorf("--out %s: %w", f.path, err))
			continue
		}
		if rep.Chart == "" {
			rep.Chart = f.path
		}
		rep.ChartFiles = append(rep.ChartFiles, f.path)
	}
	for _, f := range o.files {
		if report.IsChart(f.format) {
			continue
		}
		if err := outfile.Write(f.path, func(w io.Writer) error {
			rw := o.secrets.Writer(w)
			if err := o.render(rw, rep, f.format); err != nil {
				return err
			}
			return rw.Flush()
		}); err != nil {
			failed = append(failed, fmt.Errorf("--out %s: %w", f.path, err))
		}
	}
	if stdout != nil {
		if err := o.writeStdout(stdout, rep); err != nil {
			var ee *exitError
			if errors.As(err, &ee) {
				return err // a picture for a terminal: bad input
			}
			failed = append(failed, fmt.Errorf("the report to stdout: %w", err))
		}
	}
	if len(failed) > 0 {
		return &exitError{code: exitWrite, err: errors.Join(failed...)}
	}
	return nil
}

// writeStdout writes the report in --format to stdout.
func (o *output) writeStdout(stdout io.Writer, rep *report.Report) error {
	if report.IsChart(o.format) {
		if isTerminal(stdout) {
			return badInput(fmt.Errorf("--format %s writes a picture: name a file with --out FILE.%s, or redirect stdout", o.format, o.format))
		}
		err := report.WriteChart(stdout, rep, o.format, o.chart)
		if errors.Is(err, report.ErrNoData) {
			o.note("--format %s: no picture written to stdout: %v", o.format, err)
			return nil
		}
		return err
	}
	if o.format == report.FormatText {
		rep.Width = terminalWidth(stdout)
		defer func() { rep.Width = 0 }()
	}
	return report.Write(stdout, rep, o.format)
}

// note says on o.notes (stderr) what became of an output that was not
// a failure.
func (o *output) note(format string, args ...any) {
	if o.notes != nil {
		fmt.Fprintf(o.notes, "retrysim: "+format+"\n", args...)
	}
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

// chartFor is the chart a picture file draws: the one its name starts
// with (storm.png, ttl-all.svg), so one run can draw each; else chart
// (--chart).
func chartFor(path, chart string) string {
	base := strings.ToLower(filepath.Base(path))
	for _, c := range report.Charts() {
		if strings.HasPrefix(base, c) {
			return c
		}
	}
	return chart
}

// render writes one text format to a file: the HTML report draws the
// charts of the chart options in it.
func (o *output) render(w io.Writer, rep *report.Report, format string) error {
	if format == report.FormatHTML {
		return report.WriteHTML(w, rep, o.chart)
	}
	return report.Write(w, rep, format)
}

// writeJUnit writes the --out files, and the gates as JUnit XML to stdout,
// for --format junit.
func (o *output) writeJUnit(stdout io.Writer, rep *report.Report) error {
	err := o.write(nil, rep)
	if jerr := report.WriteJUnit(stdout, rep); jerr != nil {
		err = &exitError{code: exitWrite, err: errors.Join(err, fmt.Errorf("the JUnit report to stdout: %w", jerr))}
	}
	return err
}

// terminalWidth is the width the text report wraps to on w: the
// terminal's when w is one, else $COLUMNS when it is set (as shells and
// CI runners do), else 0, the report's default.
func terminalWidth(w io.Writer) int {
	if r, ok := w.(*redact.Writer); ok {
		w = r.Underlying()
	}
	if f, ok := w.(*os.File); ok && isTerminal(f) {
		if width, _, err := term.GetSize(int(f.Fd())); err == nil && width >= minWidth {
			return width
		}
	}
	if n, err := strconv.Atoi(os.Getenv("COLUMNS")); err == nil && n >= minWidth {
		return n
	}
	return 0
}

// minWidth is the narrowest the text report wraps to: narrower, it would
// be more indent than text.
const minWidth = 40

// isTerminal reports whether w is a terminal (a character device), without
// a dependency: os.File.Stat tells.
func isTerminal(w io.Writer) bool {
	if r, ok := w.(*redact.Writer); ok {
		w = r.Underlying() // the redactor in front of stdout and stderr
	}
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
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
			paths, err := resultPaths(args)
			if err != nil {
				return badInput(err)
			}
			if len(paths) > 1 {
				return runReportShards(cmd, o, paths)
			}
			return runReport(cmd, o, paths[0])
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&o.format, "format", report.FormatText, "report format: "+strings.Join(reportFormats(), ", ")+" (junit reports the --fail-on gates)")
	fl.StringVar(&o.ttls, "ttl", "", ttlChoicesUsage())
	fl.BoolVar(&o.noTimeline, "no-timeline", false, "leave the per-event timeline out of the report")
	o.outputFlags.add(fl)
	o.gateFlags.add(fl)
	return cmd
}

func runReport(cmd *cobra.Command, o *reportFlags, path string) (err error) {
	return reportFrom(cmd, o, []string{path}, func(in []io.Reader, add func(*simulator.Record) error) error {
		return report.ReadJSONL(in[0], add)
	})
}

// reportFrom reads the results streams at paths with read and writes
// their report.
func reportFrom(cmd *cobra.Command, o *reportFlags, paths []string, read func([]io.Reader, func(*simulator.Record) error) error) (err error) {
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
	out.addConfiguredTTL(gateOpts.TTLConfigured)
	named := []outfile.Named{{Flag: "--config", Path: st.path}}
	for _, p := range paths {
		named = append(named, outfile.Named{Flag: "results", Path: p})
	}
	errs = append(errs, outfile.CheckDistinct(outPaths(o.out), named)...)
	var ins []io.Reader
	for _, p := range paths {
		if p == "-" {
			ins = append(ins, cmd.InOrStdin())
			continue
		}
		f, err := os.Open(p)
		if err != nil {
			errs = append(errs, fmt.Errorf("results: %w", err))
			continue
		}
		defer f.Close()
		ins = append(ins, f)
	}
	if len(errs) > 0 {
		return badInput(errors.Join(errs...))
	}
	agg := report.NewAggregator(report.WithTimeline(out.keep), report.WithTTLs(out.ttls))
	defer closeAggregator(agg, &err)
	if err := read(ins, agg.Add); err != nil {
		return badInput(fmt.Errorf("results %s: %w", path, err))
	}
	runs := agg.Runs()
	if len(runs) == 0 {
		return badInput(fmt.Errorf("results %s: no runs in it (expected the JSON Lines that 'retrysim run --results' writes)", path))
	}
	rep := &report.Report{Runs: runs, TTLs: out.ttls, Timeline: out.timeline(), Timeouts: st.catalogueTimeouts(), Spelling: advice.Flag}
	gateOpts.Timeouts = rep.Timeouts
	rep.Gates = report.CheckGates(rep.Runs, gates, gateOpts)
	out.notes = cmd.ErrOrStderr()
	write := out.write
	if junit {
		write = out.writeJUnit
	}
	if err := write(cmd.OutOrStdout(), rep); err != nil {
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

// runReportShards merges the shard streams at paths into their run's
// report.
func runReportShards(cmd *cobra.Command, o *reportFlags, paths []string) error {
	return reportFrom(cmd, o, paths, func(ins []io.Reader, add func(*simulator.Record) error) error {
		streams := make([]report.ShardStream, len(ins))
		for i := range ins {
			streams[i] = report.ShardStream{Name: paths[i], R: ins[i]}
		}
		return report.MergeShards(streams, add)
	})
}

// resultPaths expands the report's arguments: a glob names every file it
// matches, in order; "-" (stdin) stands alone.
func resultPaths(args []string) ([]string, error) {
	var out []string
	for _, a := range args {
		if a == "-" {
			if len(args) > 1 {
				return nil, errors.New("report: - (stdin) is one stream: it cannot be merged with others")
			}
			return args, nil
		}
		if _, err := os.Stat(a); err == nil || !strings.ContainsAny(a, "*?[") {
			out = append(out, a)
			continue
		}
		m, err := filepath.Glob(a)
		if err != nil {
			return nil, fmt.Errorf("results %s: %w", a, err)
		}
		if len(m) == 0 {
			return nil, fmt.Errorf("results %s: no file matches", a)
		}
		out = append(out, m...)
	}
	return out, nil
}
