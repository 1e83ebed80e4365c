package main

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/retrysim/retrysim/policies"
	"github.com/retrysim/retrysim/policies/configfile"
	"github.com/retrysim/retrysim/policies/payload"
	"github.com/retrysim/retrysim/report"
	"github.com/retrysim/retrysim/report/advice"
	"github.com/retrysim/retrysim/report/outfile"
	"github.com/retrysim/retrysim/report/output"
	"github.com/retrysim/retrysim/report/redact"
	"github.com/retrysim/retrysim/scenarios"
	"github.com/retrysim/retrysim/simulator"
	"github.com/retrysim/retrysim/simulator/demo"
	"github.com/retrysim/retrysim/simulator/interrupt"
	"github.com/retrysim/retrysim/simulator/oracle"
	"github.com/retrysim/retrysim/simulator/supervise"
)

type runFlags struct {
	oracleFlags oracleFlags
	providers   []string
	scenario    string
	url         string
	demoMode    string
	demoTTL     string
	events      int
	over        string
	seed        uint64
	concurrency int
	realtime    bool
	dryRun      bool
	secrets     []string
	eventTypes  []string
	retries     retriesFlag
	effectsURL  string
	results     string
	allowRemote bool
	maxRPS      *maxRPSFlag
	insecure    bool
	ca          string
	exec        string
	runID       string
	settle      string
	tenantFlags
	payloadFlags
	gateFlags
	outputFlags
	// urlFlag is the flag that gives url, for messages: "url" for run,
	// "forward-to" for proxy; empty means "url".
	urlFlag string
	// given reports whether a flag was set on the command line, in the
	// environment or in the config file, rather than left at its default;
	// typed whether it was set on the command line.
	given, typed func(name string) bool
}

func newRunCmd() *cobra.Command {
	f := &runFlags{maxRPS: newMaxRPSFlag()}
	cmd := &cobra.Command{
		Use:   "run",
		Short: "Replay a provider's retry schedule against a handler and report what happened",
		Long: `Run sends --events webhook events to your handler the way the provider would: each
attempt is a real, signed HTTP request; retries follow the provider's schedule on a fake
clock, so days of retries take seconds; the scenario injects faults in between. The report
shows every attempt, the duplicates that reached your handler, whether it stayed idempotent
(when retrysim can see its side effects), and the dedup-key TTL you need.

Without --url, run serves a built-in demo handler on 127.0.0.1 backed by a real SQLite
database (--demo naive credits an account on every delivery, so duplicates cost money).

Examples:
  retrysim run --provider shopify --scenario flaky-network
  retrysim run --provider shopify --scenario flaky-network --demo idempotent
  retrysim run --provider stripe --demo queue-unguarded
  retrysim run --provider stripe --url http://127.0.0.1:3000/webhooks/stripe --secret stripe=whsec_…
  retrysim run --provider stripe --url http://127.0.0.1:3000/webhooks/stripe --secret stripe=whsec_… \
      --payload invoice_paid.json --set data.object.customer=cus_Known0001 --header 'X-Gateway-Token: …'
  retrysim run --provider stripe,slack --scenario outage-6h --events 100 --format json
  retrysim run --provider stripe,github --event-type stripe=invoice.paid,github=release
  retrysim run --provider twilio --retries 3 --results attempts.jsonl
  retrysim run --provider stripe --scenario outage --out timeline.png
  retrysim run --provider stripe,shopify --format markdown --out ttl.png --chart ttl
  retrysim run --provider stripe --events 500 --scenario outage --out storm.png --out report.html
  retrysim run --provider stripe --scenario crash-restart --url http://127.0.0.1:3000/webhooks/stripe \
      --exec "node server.js" --effects-url http://127.0.0.1:3000/_retrysim/effects
  retrysim run --provider stripe --demo ttl --demo-ttl 24h --scenario late-redelivery --verbose
  retrysim run --provider stripe --scenario forged --demo unverified --fail-on forged-accepted
  retrysim run --provider stripe --url http://127.0.0.1:3000/webhooks/stripe \
      --effects-url http://127.0.0.1:3000/_retrysim/effects \
      --fail-on duplicate-effects,lost-events,ttl-too-short --ttl-configured 24h --format junit > retrysim.xml

Gates (--fail-on), checked per run; exit 1 when one fails or cannot be checked:
` + advice.GatesHelp(helpWidth),
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runRun(cmd, f) },
	}
	fl := cmd.Flags()
	fl.StringSliceVar(&f.providers, "provider", []string{"shopify"}, "provider policies to replay, comma-separated, or 'all' for the named defaults ("+strings.Join(policies.NamedDefaults(), ", ")+"; see 'retrysim policies')")
	fl.StringVar(&f.scenario, "scenario", scenarios.Default, "fault scenario: a built-in name (see 'retrysim scenarios') or a .yaml file; several joined by commas run the union of their faults")
	fl.StringVar(&f.url, "url", "", "your handler's URL (default: serve the built-in demo handler on 127.0.0.1)")
	fl.StringVar(&f.demoMode, "demo", string(demo.Naive), "demo handler mode when --url is not given: "+strings.Join(demo.ModeNames(), ", "))
	fl.StringVar(&f.demoTTL, "demo-ttl", policies.FormatDuration(demo.DefaultTTL), "how long the ttl demo handler keeps a dedup key (virtual time)")
	fl.IntVar(&f.events, "events", simulator.DefaultEvents, "number of events to deliver")
	f.tenantFlags.add(fl)
	fl.StringVar(&f.over, "over", policies.FormatDuration(simulator.DefaultOver), "virtual time over which the events' first attempts are spread")
	fl.Uint64Var(&f.seed, "seed", simulator.DefaultSeed, "seed for every random choice: the same seed gives the same timeline and faults")
	fl.StringVar(&f.runID, "run-id", "", "run id mixed into every event id, so a second run tests the handler afresh (default: a fresh one, shown in the report); give a run's id to reproduce its ids")
	fl.StringVar(&f.settle, "settle", policies.FormatDuration(simulator.DefaultSettle), settleUsage)
	fl.IntVar(&f.concurrency, "concurrency", simulator.DefaultConcurrency, "attempts in flight at once (does not change the timeline)")
	fl.BoolVar(&f.realtime, "realtime", false, "wait for real time between attempts instead of using the fake clock")
	fl.BoolVar(&f.dryRun, "dry-run", false, "send nothing: model the handler as answering 200 at once")
	fl.StringArrayVar(&f.secrets, "secret", nil, "signing secret as provider=value (repeatable; also RETRYSIM_SECRET_<PROVIDER> or secrets: in the config; default: one generated from --seed, printed once)")
	fl.StringSliceVar(&f.eventTypes, "event-type", nil, "event type to send: one type for one provider, or provider=type for each, comma-separated or repeated (stripe=invoice.payment_succeeded,github=push); default: each provider's payment-like event")
	fl.Var(&f.retries, "retries", "retries for policies that allow setting them; default: each policy's own, in the range its schedule allows ("+retriesDefaults()+")")
	fl.StringVar(&f.effectsURL, "effects-url", "", `your handler's side effects, read before the run and after it until they settle (--settle), for an idempotency verdict: its database, postgres://USER:PASS@HOST/DB, mysql://USER:PASS@HOST/DB or sqlite:PATH, with --effects-query; or a URL answering {"<dedup id>": <times processed>} (or {"effects": {…}, "pending": N})`)
	f.oracleFlags.add(fl)
	fl.StringVar(&f.ttls, "ttl", "", ttlChoicesUsage())
	fl.StringVar(&f.format, "format", report.FormatText, "report format: "+strings.Join(reportFormats(), ", ")+" (png and svg need --out or a redirected stdout; junit reports the --fail-on gates)")
	fl.StringVar(&f.results, "results", "", "write every attempt record as JSON Lines to FILE (compressed when it ends .gz or .zst), or - for stdout (the report then goes to stderr)")
	fl.BoolVar(&f.noTimeline, "no-timeline", false, "leave the per-event timeline out of the report")
	fl.BoolVar(&f.allowRemote, "allow-remote", false, "allow a --url that is not on this machine (127.0.0.0/8, ::1, localhost)")
	fl.Var(f.maxRPS, "max-rps", fmt.Sprintf("cap on requests per second sent to the target; 0 for no cap (auto: none on this machine, %d for a remote target)", simulator.DefaultRemoteMaxRPS))
	fl.BoolVar(&f.insecure, "insecure", false, "do not verify the target's TLS certificate (a self-signed one, say)")
	fl.StringVar(&f.ca, "ca", "", "trust the PEM certificate(s) in FILE for an https:// target, besides the system's")
	fl.StringVar(&f.exec, "exec", "", "start your handler with this shell command, wait for --url's port, and stop it after the run; scenarios with restart faults SIGKILL it and start it again")
	fl.StringArrayVar(&f.payloads, "payload", nil, payloadUsage)
	fl.StringArrayVar(&f.sets, "set", nil, setUsage)
	fl.StringArrayVar(&f.headers, "header", nil, headerUsage)
	f.gateFlags.add(fl)
	f.outputFlags.add(fl)
	f.outputFlags.addBy(fl)
	return cmd
}

// plan is a validated run command: everything needed to start.
type plan struct {
	policies []policies.Policy
	scenario scenarios.Scenario
	mode     demo.Mode
	demoTTL  time.Duration
	gates    []report.Gate
	gateOpts report.GateOptions
	junit    bool
	over     time.Duration
	secrets  map[string]string
	// eventTypes are the --event-type choices, by policy name.
	eventTypes map[string]string
	// payloads make the bodies of a policy's events, by policy name
	// (--payload, --set); header is added to every request (--header).
	payloads map[string]payload.Maker
	header   http.Header
	out      *output.Plan
	tls      *tls.Config
	maxRPS   float64
	// settings are the command's config file and environment.
	settings *settings
	// runID is the run id every provider's run shares; settle the longest
	// wait for the effects.
	runID  string
	settle time.Duration
	shard  simulator.Shard
	// oracle is the effects oracle's database and quiet window.
	oracle oraclePlan
	// told remembers the providers whose generated secret or public key
	// was printed, so each is printed once.
	told map[string]bool
}

func (f *runFlags) validate(ctx context.Context, st *settings, stderr io.Writer) (*plan, error) {
	p := &plan{told: map[string]bool{}, settings: st}
	// Secrets are redacted from everything written from here on, even
	// when one of them turns out to be malformed.
	st.redactGiven(ctx, stderr, f.secrets)
	secretsOf(ctx).Add(slices.Concat(redact.URLSecrets(f.url), redact.URLSecrets(f.effectsURL))...)
	var errs []error
	of := f.outputFlags
	var outErrs []error
	p.junit = junitFormat(&of)
	p.out, outErrs = of.validate()
	errs = append(errs, outErrs...)
	f.providerFromURL(st, stderr)
	var polErrs []error
	var adjust func(policies.Policy) (policies.Policy, error)
	if f.retries.set {
		adjust = advice.Retries(st.catalogue, f.retries.n)
	}
	p.policies, polErrs = advice.Providers(st.catalogue, f.providers, adjust)
	errs = append(errs, polErrs...)
	var typeErrs []error
	p.eventTypes, typeErrs = advice.EventTypes(f.eventTypes, p.policies)
	errs = append(errs, typeErrs...)
	if len(typeErrs) == 0 && len(polErrs) == 0 {
		errs = append(errs, f.validatePayloads(p)...)
	}
	if !f.dryRun {
		errs = append(errs, advice.URLOverrides(f.urlFlagName(), f.url, p.policies)...)
	}
	sc, scenarioFile, err := st.scenarioFlag(f.scenario)
	if err != nil {
		errs = append(errs, err)
	}
	p.scenario = sc
	if err := advice.Restarts(sc, f.exec, f.url, f.urlFlag != ""); err != nil {
		errs = append(errs, err)
	}
	if f.url == "" && !f.dryRun {
		if p.mode, err = demo.ParseMode(f.demoMode); err != nil {
			errs = append(errs, fmt.Errorf("--demo: %w", err))
		}
	}
	if f.url != "" && !f.dryRun {
		errs = append(errs, checkTarget(ctx, f.urlFlagName(), f.url, f.allowRemote)...)
	}
	errs = append(errs, f.validateOracle(ctx, p)...)
	// A database URL is checked as one (validateOracle), even when it
	// could not be read: it is no HTTP URL to be refused as one.
	if f.effectsURL != "" && !f.dryRun && !oracle.IsDatabaseURL(f.effectsURL) {
		errs = append(errs, checkTarget(ctx, "--effects-url", f.effectsURL, f.allowRemote)...)
	}
	var overErr error
	p.over, overErr = advice.Span("over", f.over, simulator.CheckOver)
	errs = append(errs, limitErrs(
		advice.Limit("events", "", simulator.CheckEvents(f.events)),
		advice.Limit("concurrency", "", simulator.CheckConcurrency(f.concurrency)),
		advice.Limit("seed", "", simulator.CheckSeed(f.seed)),
		overErr)...)
	if p.secrets, err = advice.Secrets(f.secrets); err != nil {
		errs = append(errs, err)
	} else {
		if f.typed != nil && f.typed("secret") {
			// A shared config may hold secrets for providers this
			// command does not run; one typed for this command is meant
			// for it.
			errs = append(errs, advice.SecretsNotRun(p.secrets, p.policies, f.given == nil || f.given("provider"))...)
		}
	}
	errs = append(errs, f.validateRunID(p)...)
	var shardErrs []error
	p.shard, shardErrs = f.tenantFlags.parse(f.runID, os.Getenv)
	errs = append(errs, shardErrs...)
	if err := advice.ByTenant(of.by, f.tenantFlags.tenants); err != nil {
		errs = append(errs, err)
	}
	if p.tls, err = tlsConfig(f.insecure, f.ca); err != nil {
		errs = append(errs, err)
	}
	p.maxRPS = f.rateCap(ctx)
	errs = append(errs, f.validateGates(p)...)
	if p.demoTTL, err = parseTTL("demo-ttl", f.demoTTL); err != nil {
		errs = append(errs, err)
	}
	errs = append(errs, f.validateDryRun(p)...)
	if f.results == "-" && report.IsChart(f.format) {
		// The report goes to stderr then, beside retrysim's own lines.
		errs = append(errs, fmt.Errorf("--format %s with --results -: the stream takes stdout and the report would be a picture on stderr; name a file with --out FILE.%s", f.format, f.format))
	}
	if f.results != "" && f.results != "-" {
		if err := outfile.CheckWritable(f.results); err != nil {
			errs = append(errs, fmt.Errorf("--results: %w", err))
		}
	}
	errs = append(errs, outfile.CheckDistinct(
		append([]outfile.Named{{Flag: "--results", Path: f.results}}, outPaths(f.out)...),
		[]outfile.Named{{Flag: "--scenario", Path: scenarioFile}, {Flag: "--config", Path: st.path}, {Flag: "--ca", Path: f.ca}})...)
	p.out.AddConfiguredTTL(p.gateOpts.TTLConfigured)
	if len(errs) > 0 {
		return nil, badInput(errors.Join(errs...))
	}
	return p, nil
}

// urlFlagName is the flag that gives url, as a message names it: --url,
// or proxy's --forward-to.
func (f *runFlags) urlFlagName() string {
	if f.urlFlag == "" {
		return "--url"
	}
	return "--" + f.urlFlag
}

func runRun(cmd *cobra.Command, f *runFlags) (err error) {
	st, err := loadConfig(cmd)
	if err != nil {
		return err
	}
	f.given = func(name string) bool { return cmd.Flags().Changed(name) || st.isSet(name) }
	f.typed = cmd.Flags().Changed
	ctx, stop := interruptible(cmd.Context(), cmd.ErrOrStderr(), runInterruptNote, nil)
	defer stop()
	p, err := f.validate(ctx, st, cmd.ErrOrStderr())
	if err != nil {
		return err
	}
	outs, err := openOutputs(cmd, f.results, p.out)
	if err != nil {
		return err
	}
	defer outs.close(&err)
	prog := &report.Progress{Over: p.over}
	stopProgress, watch := func() {}, func(*simulator.Record) {}
	if output.IsTerminal(cmd.ErrOrStderr()) {
		// Only a person watching a terminal gets the line, and only for runs
		// that last: redirected stderr stays clean, and its records skip
		// the progress's lock.
		stopProgress = prog.Show(cmd.ErrOrStderr(), time.Second, 200*time.Millisecond)
		watch = prog.Add
	}
	deliver := outs.sink(ctx, watch)
	err = runProviders(ctx, cmd.ErrOrStderr(), f, p, deliver)
	stopProgress()
	if stopped := (*simulator.RestartError)(nil); err != nil && !errors.As(err, &stopped) {
		return err
	}
	// A run a failed restart stopped was closed like an interrupted one:
	// its report says so, and writeReport how the command ends.
	return outs.finish(ctx, cmd, p)
}

// writeReport writes the report of the runs agg holds to reportOut (and
// --out), and says how the command ends: stopped by a restart that failed,
// interrupted, a gate failed, or success.
func (p *plan) writeReport(ctx context.Context, cmd *cobra.Command, agg *report.Aggregator, reportOut io.Writer) error {
	rep := p.out.Report(agg.Runs(), report.TimeoutsOf(p.settings.allPolicies()), p.gates, p.gateOpts)
	p.out.Secrets, p.out.Notes = secretsOf(cmd.Context()), cmd.ErrOrStderr()
	if err := writeOutput(p.out, p.junit, reportOut, rep); err != nil {
		return err
	}
	if err := restartFailed(rep.Runs); err != nil {
		return err
	}
	if runsCut(ctx, rep.Runs, len(p.policies)) {
		// Gates judge whole runs: an interrupted one is reported, not judged.
		return &exitError{code: exitInterrupted, err: errors.New("interrupted: the report and results above cover the attempts made before the interrupt")}
	}
	return gateError(rep.Gates)
}

// restartFailed is the command's error when a restart of the handler
// failed and stopped a run (exit 4); nil when none did.
func restartFailed(runs []*report.Summary) error {
	if msg := report.StoppedByRestart(runs); msg != "" {
		return &exitError{code: exitStopped, err: errors.New(msg)}
	}
	return nil
}

// prepareOne readies one policy's run against the target (starting a demo
// handler, or the user's --exec handler, when needed): the run's config,
// records still to be given a sink, and what to stop after it.
func prepareOne(ctx context.Context, stderr io.Writer, f *runFlags, p *plan, pol policies.Policy) (simulator.Config, func(), error) {
	cleanup := func() {}
	secret, given := p.settings.secretFor(p.secrets, pol.Provider)
	if err := policies.CheckSecret(pol.Provider, secret); given && err != nil {
		return simulator.Config{}, cleanup, badInput(fmt.Errorf("%s or secrets: in %s: %w", configfile.SecretEnv(pol.Provider), configfile.Name, err))
	}
	if !given {
		secret = policies.GenerateSecret(pol.Provider, f.seed)
	}
	cfg := simulator.Config{
		Policy: pol, Scenario: p.scenario, DefaultScenario: !f.given("scenario"), Events: f.events, Over: p.over, Seed: f.seed,
		Concurrency: f.concurrency, Realtime: f.realtime, DryRun: f.dryRun, EventType: p.eventTypes[pol.Name],
		Secret: secret, Payloads: p.payloads[pol.Name], Header: p.header, AllowRemote: f.allowRemote, TLS: p.tls, MaxRPS: p.maxRPS, Handshake: true, RunID: p.runID, SettleLimit: p.settle,
		Tenants: f.tenants, Shard: p.shard,
	}
	switch {
	case f.dryRun:
		if _, keyed := policies.PublicKey(pol.Provider, secret); keyed {
			// A dry run sends nothing, but the handler's author needs the
			// public key before the first real run.
			tellSecret(stderr, p.told, pol.Provider, secret, !given, f.seed)
		}
	case f.url != "":
		cfg.URL, cfg.TargetName = f.url, simulator.DisplayURL(f.url)
		if p.maxRPS > 0 && f.maxRPS.auto {
			fmt.Fprintf(stderr, "retrysim: %s is not on this machine: sending at most %g requests a second (--max-rps to change)\n", f.url, p.maxRPS)
		}
		tellSecret(stderr, p.told, pol.Provider, secret, !given, f.seed)
		if f.exec != "" {
			var opts []supervise.Option
			if f.allowRemote {
				opts = append(opts, supervise.AllowRemote())
			}
			proc, err := startExec(ctx, f.exec, f.url, stderr, opts...)
			if err != nil {
				if interrupt.Interrupted(ctx) {
					return cfg, cleanup, &exitError{code: exitInterrupted, err: err}
				}
				return cfg, cleanup, badInput(err)
			}
			cleanup = proc.Stop
			cfg.Restart = func(ctx context.Context) error { return advice.Exec(proc.Restart(ctx)) }
		}
	default:
		srv, err := startDemo(p.mode, pol.Provider, secret, demo.WithTTL(p.demoTTL))
		if err != nil {
			return cfg, cleanup, fmt.Errorf("demo handler: %w", err)
		}
		cleanup = srv.close
		srv.Target(&cfg)
	}
	if f.effectsURL != "" && !f.dryRun {
		closeOracle, err := openOracle(ctx, f, p, &cfg)
		if err != nil {
			cleanup()
			return cfg, func() {}, err
		}
		stop := cleanup
		cleanup = func() { closeOracle(); stop() }
	}
	return cfg, cleanup, nil
}

// recordSink redacts each record of a run and sends it to the results
// stream (when there is one), to watch, and to the aggregator the report
// is made from.
func recordSink(sec *redact.Set, results *resultsSink, agg *report.Aggregator, watch func(*simulator.Record)) simulator.Sink {
	redactor := redact.NewRecords(sec)
	return func(r *simulator.Record) error {
		r = redactor.Redact(r)
		if results != nil {
			if err := results.Add(r); err != nil {
				return writeFailed(fmt.Errorf("--results: %w", err))
			}
		}
		watch(r)
		return agg.Add(r)
	}
}

// tellSecret tells the user provider's secret (advice.TellSecret), once
// per provider: told remembers those told.
func tellSecret(w io.Writer, told map[string]bool, provider, secret string, generated bool, seed uint64) {
	if told[provider] {
		return
	}
	told[provider] = true
	advice.TellSecret(w, provider, secret, generated, seed)
}

// validateGates reads --fail-on and --ttl-configured, and refuses a gate
// that could never be checked on this run: report decides which.
func (f *runFlags) validateGates(p *plan) []error {
	gates, opts, errs := f.gateFlags.parse(p.junit)
	p.gates, p.gateOpts = gates, opts
	planned := report.GatePlan{
		Modelled: f.dryRun,
		NoOracle: f.effectsURL == "" && f.url != "",
		NoAttack: report.SendsNoAttack(p.scenario, p.policies),
		Scenario: p.scenario.Name,
	}
	errs = append(errs, planned.Refusals(gates, advice.Flag)...)
	return errs
}
