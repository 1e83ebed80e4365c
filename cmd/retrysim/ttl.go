package main

import (
	"errors"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/retrysim/retrysim/policies"
	"github.com/retrysim/retrysim/report"
	"github.com/retrysim/retrysim/report/advice"
	"github.com/retrysim/retrysim/report/outfile"
	"github.com/retrysim/retrysim/report/output"
	"github.com/retrysim/retrysim/report/ttlmodel"
	"github.com/retrysim/retrysim/scenarios"
	"github.com/retrysim/retrysim/simulator"
	"github.com/retrysim/retrysim/simulator/interrupt"
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
	fl.StringSliceVar(&f.providers, "provider", ttlmodel.Providers(), "provider policies to compare, comma-separated, or 'all'")
	fl.StringVar(&f.scenario, "scenario", scenarios.Default, "fault scenario: a built-in name (see 'retrysim scenarios') or a .yaml file")
	fl.StringVar(&f.ttls, "ttl", "", ttlChoicesUsage())
	fl.StringVar(&f.format, "format", report.FormatText, "output format: "+strings.Join(report.TTLFormats(), ", "))
	fl.StringArrayVar(&f.out, "out", nil, "also write to FILE, in the format its extension names: .png or .svg draws the TTL comparison chart, .md, .json or .txt writes the tables; repeatable, and stdout keeps --format")
	fl.IntVar(&f.events, "events", 200, "events per provider")
	fl.StringVar(&f.over, "over", policies.FormatDuration(simulator.DefaultOver), "virtual time over which the events' first attempts are spread")
	fl.Uint64Var(&f.seed, "seed", simulator.DefaultSeed, "seed for every random choice")
	return cmd
}

func runTTL(cmd *cobra.Command, f *ttlFlags) error {
	st, err := loadConfig(cmd)
	if err != nil {
		return err
	}
	defaultScenario := !cmd.Flags().Changed("scenario") && !st.isSet("scenario")
	pols, errs := advice.Providers(st.catalogue, f.providers, nil)
	sc, scenarioFile, err := st.scenarioFlag(f.scenario)
	if err != nil {
		errs = append(errs, err)
	}
	var ttls []time.Duration
	if f.ttls != "" {
		if ttls, err = output.ParseTTLs(f.ttls, advice.Flag); err != nil {
			errs = append(errs, err)
		}
	}
	format := f.format
	if err := output.CheckFormat(format, report.TTLFormats(), advice.Flag); err != nil {
		errs = append(errs, err)
	}
	files, outErrs := output.Files(f.out, "ttl", report.TTLFormats(), advice.Flag)
	errs = append(errs, outErrs...)
	errs = append(errs, outfile.CheckDistinct(outPaths(f.out), []outfile.Named{{Flag: "--scenario", Path: scenarioFile}, {Flag: "--config", Path: st.path}})...)
	over, overErr := advice.Span("over", f.over, simulator.CheckOver)
	errs = append(errs, limitErrs(
		advice.Limit("events", "", simulator.CheckEvents(f.events)),
		advice.Limit("seed", "", simulator.CheckSeed(f.seed)),
		overErr)...)
	if len(errs) > 0 {
		return badInput(errors.Join(errs...))
	}

	ctx, stop := interruptible(cmd.Context(), cmd.ErrOrStderr(), interrupt.Note{
		First: "stopping the model and writing the tables for the events modelled so far",
		Again: ", without the tables",
	}, nil)
	defer stop()
	prog := &report.Progress{Over: over}
	stopProgress := func() {}
	if output.IsTerminal(cmd.ErrOrStderr()) {
		stopProgress = prog.Show(cmd.ErrOrStderr(), time.Second, 200*time.Millisecond)
	}
	model := ttlmodel.Model{
		Policies: pols, Scenario: sc, DefaultScenario: defaultScenario,
		Events: f.events, Over: over, Seed: f.seed, TTLs: ttls, Watch: prog.Add,
	}
	rep, err := model.Run(ctx)
	stopProgress()
	if errors.Is(err, simulator.ErrConfig) {
		return badInput(err)
	} else if err != nil {
		return err
	}
	rep.Spelling = advice.Flag
	if err := output.WriteTTL(cmd.OutOrStdout(), files, rep, format, advice.Flag); err != nil {
		return &exitError{code: exitWrite, err: err}
	}
	if interrupt.Interrupted(ctx) {
		// The tables above cover only the events modelled before the
		// interrupt; say so, and exit as an interrupted run does.
		return &exitError{code: exitInterrupted, err: errors.New("interrupted: the tables above cover only the events modelled before the interrupt")}
	}
	return nil
}
