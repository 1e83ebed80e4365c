package main

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/retrysim/retrysim/cmd/retrysim/advice"
	"github.com/retrysim/retrysim/policies"
	"github.com/retrysim/retrysim/report"
	"github.com/retrysim/retrysim/scenarios"
	"github.com/retrysim/retrysim/simulator"
)

type ttlFlags struct {
	providers []string
	scenario  string
	ttls      string
	format    string
	out       []string
	events    int
	over      string
	seed      uint64
}

// ttlFormats are the formats of `retrysim ttl`.
var ttlFormats = []string{report.FormatText, report.FormatJSON, report.FormatMarkdown}

// ttlProviders are the policies `retrysim ttl` compares by default: the
// named defaults that retry (a policy that never sends twice needs no TTL).
func ttlProviders() []string {
	var out []string
	for _, n := range policies.NamedDefaults {
		if p, err := lookupPolicy(n); err == nil && p.MaxAttempts() > 1 {
			out = append(out, n)
		}
	}
	return out
}

func newTTLCmd() *cobra.Command {
	f := &ttlFlags{}
	cmd := &cobra.Command{
		Use:   "ttl",
		Short: "Compare dedup-key TTLs against the providers' retry schedules",
		Long: `TTL answers "how long must I keep dedup keys?" for each provider. It runs the model (no
handler: every attempt the scenario lets through is answered 200 at once) and prints, per
provider and overall: the worst-case span of automatic retries, the manual-redelivery window,
the recommended TTL with and without manual redelivery, and for each TTL choice the
duplicates it lets through, in this run and in the worst case (the handler did the work at
the first attempt and every answer was lost, so every retry of the schedule arrives).
Where common advice (5 minutes, a 24 h cache) is too short for a provider, it says so.

Examples:
  retrysim ttl
  retrysim ttl --provider stripe,shopify --scenario late-redelivery
  retrysim ttl --ttl 5m,1h,24h,72h,7d,30d --format markdown
  retrysim ttl --out ttl.png`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runTTL(cmd, f) },
	}
	fl := cmd.Flags()
	fl.StringSliceVar(&f.providers, "provider", ttlProviders(), "provider policies to compare, comma-separated, or 'all'")
	fl.StringVar(&f.scenario, "scenario", "flaky-network", "fault scenario: a built-in name (see 'retrysim scenarios') or a .yaml file")
	fl.StringVar(&f.ttls, "ttl", "", "dedup TTL choices to compare, comma-separated (default 5m,1h,24h,3d,7d,30d)")
	fl.StringVar(&f.format, "format", report.FormatText, "output format: "+strings.Join(ttlFormats, ", "))
	fl.StringArrayVar(&f.out, "out", nil, "also write to FILE, in the format its extension names: .png or .svg draws the TTL comparison chart, .md, .json or .txt writes the tables; repeatable, and stdout keeps --format")
	fl.IntVar(&f.events, "events", 200, "events per provider")
	fl.StringVar(&f.over, "over", "1h", "virtual time over which the events' first attempts are spread")
	fl.Uint64Var(&f.seed, "seed", simulator.DefaultSeed, "seed for every random choice")
	return cmd
}

func runTTL(cmd *cobra.Command, f *ttlFlags) (err error) {
	v, err := loadConfig(cmd)
	if err != nil {
		return err
	}
	defaultScenario := !cmd.Flags().Changed("scenario") && !v.IsSet("scenario")
	var errs []error
	names, err := providerNames(f.providers)
	if err != nil {
		errs = append(errs, err)
	}
	var pols []policies.Policy
	for _, n := range names {
		pol, err := lookupPolicy(n)
		if err != nil {
			errs = append(errs, fmt.Errorf("--provider: %w", err))
			continue
		}
		pols = append(pols, pol)
	}
	sc, err := lookupScenario(f.scenario)
	if err != nil {
		errs = append(errs, fmt.Errorf("--scenario: %w", err))
	}
	var ttls []time.Duration
	if f.ttls != "" {
		if ttls, err = parseTTLs(f.ttls); err != nil {
			errs = append(errs, err)
		}
	}
	format := f.format
	if !slices.Contains(ttlFormats, format) {
		errs = append(errs, fmt.Errorf("--format: %q is not a format (valid: %s)", format, strings.Join(ttlFormats, ", ")))
	}
	var files []outFile
	for _, path := range f.out {
		of, err := report.FormatForPath(path)
		werr := checkWritable(path)
		switch {
		case err != nil:
			errs = append(errs, fmt.Errorf("--out: %w", err))
		case werr != nil:
			errs = append(errs, fmt.Errorf("--out: %w", werr))
		case !report.IsChart(of) && !slices.Contains(ttlFormats, of):
			errs = append(errs, fmt.Errorf("--out: %s is %s; ttl writes %s, png or svg", path, of, strings.Join(ttlFormats, ", ")))
		default:
			files = append(files, outFile{path: path, format: of})
		}
	}
	scenarioFile := ""
	if _, fromConfig := fileScenarios[f.scenario]; !fromConfig && scenarios.IsFileName(f.scenario) {
		scenarioFile = f.scenario
	}
	errs = append(errs, checkDistinct(outPaths(f.out), []namedPath{{"--scenario", scenarioFile}, {"--config", configPath}})...)
	if f.events < 1 || f.events > simulator.MaxEvents {
		errs = append(errs, fmt.Errorf("--events: %d is out of range (1..%d)", f.events, simulator.MaxEvents))
	}
	if f.seed == 0 {
		errs = append(errs, errors.New("--seed: 0 is reserved; use any other number"))
	}
	over, err := policies.ParseDuration(f.over)
	if err != nil {
		errs = append(errs, fmt.Errorf("--over: %w", err))
	} else if over <= 0 || over > simulator.MaxOver {
		errs = append(errs, fmt.Errorf("--over: %s is out of range (above 0, at most %s)", f.over, policies.FormatDuration(simulator.MaxOver)))
	}
	if len(errs) > 0 {
		return badInput(errors.Join(errs...))
	}

	ctx, stop := interruptible(cmd.Context(), cmd.ErrOrStderr(), interruptNote{
		first: "stopping the model and writing the tables for the events modelled so far",
		again: ", without the tables",
	})
	defer stop()
	agg := report.NewAggregator(report.WithTimeline(0), report.WithTTLs(ttls))
	defer closeAggregator(agg, &err)
	prog := &report.Progress{Over: over}
	stopProgress := func() {}
	if isTerminal(cmd.ErrOrStderr()) {
		stopProgress = prog.Show(cmd.ErrOrStderr(), time.Second, 200*time.Millisecond)
	}
	for _, pol := range pols {
		cfg := simulator.Config{
			Policy: pol, Scenario: sc, DefaultScenario: defaultScenario, Events: f.events, Over: over, Seed: f.seed, DryRun: true,
			Sink: func(r simulator.Record) error { prog.Add(r); return agg.Add(r) },
		}
		if _, err := simulator.Run(ctx, cfg); err != nil {
			stopProgress()
			if errors.Is(err, simulator.ErrConfig) {
				return badInput(err)
			}
			return err
		}
		if ctx.Err() != nil {
			break
		}
	}
	stopProgress()
	rep := &report.Report{Runs: agg.Runs(), TTLs: ttls, Spelling: advice.Flag}
	// The charts first, so the Markdown can show them; then the tables.
	for _, file := range files {
		if !report.IsChart(file.format) {
			continue
		}
		opts := report.ChartOptions{Chart: report.ChartTTL}
		if err := writeFile(file.path, func(w io.Writer) error { return report.WriteChart(w, rep, file.format, opts) }); err != nil {
			return writeFailed(fmt.Errorf("--out %s: %w", file.path, err))
		}
		if rep.Chart == "" {
			rep.Chart = file.path
		}
	}
	for _, file := range files {
		if report.IsChart(file.format) {
			continue
		}
		if err := writeFile(file.path, func(w io.Writer) error { return writeTTL(w, rep, file.format) }); err != nil {
			return writeFailed(fmt.Errorf("--out %s: %w", file.path, err))
		}
	}
	if format == report.FormatText {
		rep.Width = terminalWidth(cmd.OutOrStdout())
	}
	err = writeTTL(cmd.OutOrStdout(), rep, format)
	err = writeFailed(err)
	if err == nil && interrupted(ctx) {
		// The tables above cover only the events modelled before the
		// interrupt; say so, and exit as an interrupted run does.
		return &exitError{code: exitInterrupted, err: errors.New("interrupted: the tables above cover only the events modelled before the interrupt")}
	}
	return err
}

func writeTTL(w io.Writer, rep *report.Report, format string) error {
	switch format {
	case report.FormatJSON:
		return report.WriteJSON(w, rep)
	case report.FormatMarkdown:
		return report.WriteTTLMarkdown(w, rep)
	}
	return report.WriteTTLText(w, rep)
}
