package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"github.com/retrysim/retrysim/policies"
	"github.com/retrysim/retrysim/report"
	"github.com/retrysim/retrysim/report/advice"
	"github.com/retrysim/retrysim/scenarios"
	"github.com/retrysim/retrysim/simulator"
	"github.com/retrysim/retrysim/simulator/interrupt"
	"github.com/retrysim/retrysim/simulator/proxy"
)

// proxyFlags are proxy's own flags; the ones it shares with run live in
// runFlags and are checked by the same rules.
type proxyFlags struct {
	runFlags
	listen    string
	forwardTo string
	ack       bool
	captures  string
	duration  time.Duration
	// maxEvents ends the proxy after that many verified deliveries; 0
	// means no limit.
	maxEvents int
}

func newProxyCmd() *cobra.Command {
	f := &proxyFlags{runFlags: runFlags{maxRPS: newMaxRPSFlag(), seed: simulator.DefaultSeed, over: policies.FormatDuration(simulator.DefaultOver), events: 1, demoTTL: "24h", urlFlag: "forward-to"}}
	cmd := &cobra.Command{
		Use:   "proxy",
		Short: "Take real deliveries in and give your handler the provider's retries",
		Long: `Proxy stands between a tool that delivers real events once — stripe listen --forward-to,
gh webhook forward, a tunnel (ngrok, cloudflared) — and your handler. It checks each delivery's
signature with --secret, the secret your handler already uses, and answers a forged, stale or
unsigned one 400 without forwarding it. Each verified delivery becomes an event with its real
id, payload and headers, sent to --forward-to on the provider's schedule under the scenario's
faults, on its own virtual clock: days of retries take seconds. Every attempt is signed afresh
the provider's way. The first attempt's answer goes back upstream (--ack answers 200 at once).

A line is printed for each event as its schedule ends. Ctrl-C, --duration or --events ends the
proxy: the events taken in finish their schedules, the effects settle, and the report follows,
with the verdict from --effects-url and the TTL, and run's exit codes and --fail-on gates. A
second Ctrl-C cuts the schedules short (the events are marked interrupted, exit 130).

Examples:
  stripe listen --forward-to localhost:4242/webhooks/stripe     # prints whsec_…
  retrysim proxy --provider stripe --listen 127.0.0.1:4242 \
      --forward-to http://127.0.0.1:3000/webhooks/stripe --secret stripe=whsec_… \
      --effects-url http://127.0.0.1:3000/_retrysim/effects --scenario flaky-network

  gh webhook forward --repo OWNER/REPO --events issues --url http://localhost:4242/webhooks/github --secret S
  retrysim proxy --provider github --listen 127.0.0.1:4242 \
      --forward-to http://127.0.0.1:3000/webhooks/github --secret github=S --events 5

  retrysim proxy --provider shopify --listen 127.0.0.1:4242 --forward-to http://127.0.0.1:3000/hooks \
      --secret shopify=… --captures deliveries/ --duration 10m`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runProxy(cmd, f) },
	}
	fl := cmd.Flags()
	fl.StringSliceVar(&f.providers, "provider", nil, "the provider whose deliveries come in: a policy name (see 'retrysim policies')")
	fl.StringVar(&f.listen, "listen", "127.0.0.1:4242", "where to take deliveries in: a loopback HOST:PORT (a tunnel or stripe listen runs on this machine)")
	fl.StringVar(&f.forwardTo, "forward-to", "", "your handler's URL; loopback only, unless --allow-remote")
	fl.StringVar(&f.scenario, "scenario", scenarios.Default, "fault scenario between retrysim and your handler: a built-in name (see 'retrysim scenarios') or a .yaml file")
	fl.StringArrayVar(&f.secrets, "secret", nil, "your handler's signing secret as provider=value: incoming deliveries are checked with it and every attempt is signed with it (also RETRYSIM_SECRET_<PROVIDER> or secrets: in the config)")
	fl.StringVar(&f.effectsURL, "effects-url", "", `your handler's side effects, for an idempotency verdict: its database (postgres://…, mysql://…, sqlite:PATH, with --effects-query) or a URL answering {"<dedup id>": <times processed>}`)
	f.oracleFlags.add(fl)
	fl.StringVar(&f.settle, "settle", policies.FormatDuration(simulator.DefaultSettle), settleUsage)
	fl.BoolVar(&f.ack, "ack", false, "answer each delivery 200 at once instead of with your handler's answer to the first attempt")
	fl.StringVar(&f.captures, "captures", "", "save every verified delivery in DIR, an existing directory, as a raw HTTP capture that 'retrysim replay --request' reads")
	fl.DurationVar(&f.duration, "duration", 0, "end the proxy after this long (default: until Ctrl-C or --events)")
	fl.IntVar(&f.maxEvents, "events", 0, "end the proxy after this many verified deliveries (default: until Ctrl-C or --duration)")
	fl.IntVar(&f.concurrency, "concurrency", simulator.DefaultConcurrency, "attempts in flight at once")
	fl.StringVar(&f.results, "results", "", "write every attempt record as JSON Lines to FILE (compressed when it ends .gz or .zst), or - for stdout (the report then goes to stderr)")
	fl.BoolVar(&f.allowRemote, "allow-remote", false, "allow a --forward-to that is not on this machine")
	fl.Var(f.maxRPS, "max-rps", fmt.Sprintf("cap on requests per second sent to your handler; 0 for no cap (auto: none on this machine, %d for a remote one)", simulator.DefaultRemoteMaxRPS))
	fl.StringVar(&f.ttls, "ttl", "", ttlChoicesUsage())
	fl.StringVar(&f.format, "format", report.FormatText, "report format: "+strings.Join(reportFormats(), ", "))
	fl.BoolVar(&f.noTimeline, "no-timeline", false, "leave the per-event timeline out of the report")
	f.gateFlags.add(fl)
	f.outputFlags.add(fl)
	return cmd
}

func runProxy(cmd *cobra.Command, f *proxyFlags) (err error) {
	st, err := loadConfig(cmd)
	if err != nil {
		return err
	}
	f.given = func(name string) bool { return cmd.Flags().Changed(name) || st.isSet(name) }
	// The first Ctrl-C closes the intake, the proxy's normal ending; only
	// a second one interrupts.
	ending, endOnce := make(chan struct{}), sync.Once{}
	ctx, stop := interruptible(cmd.Context(), cmd.ErrOrStderr(), proxyInterruptNote,
		&interrupt.SoftEnd{Note: proxyEndNote, End: func() { endOnce.Do(func() { close(ending) }) }})
	defer stop()
	stderr := cmd.ErrOrStderr()
	p, pol, secret, err := f.validateProxy(ctx, st, stderr)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", f.listen)
	if err != nil {
		return badInput(fmt.Errorf("--listen: %w", err))
	}
	outs, err := openOutputs(cmd, f.results, p.out)
	if err != nil {
		ln.Close()
		return err
	}
	defer outs.close(&err)

	opts := []proxy.Option{proxy.WithMax(f.maxEvents), proxy.WithCaptures(f.captures), proxy.WithSpelling(advice.Flag)}
	if f.ack {
		opts = append(opts, proxy.WithAck())
	}
	in := proxy.NewIntake(pol, secret, stderr, opts...)
	fmt.Fprintf(stderr, "retrysim proxy: listening on http://%s, forwarding %s deliveries to %s under %s (scenario %s); Ctrl-C ends it\n",
		ln.Addr(), report.EscapeText(pol.Name), report.EscapeText(f.forwardTo), report.EscapeText(pol.Summary), report.EscapeText(p.scenario.Name))
	if f.duration > 0 {
		t := time.AfterFunc(f.duration, in.Close)
		defer t.Stop()
	}
	cfg := simulator.Config{
		Policy: pol, Scenario: p.scenario, DefaultScenario: !f.given("scenario"), Seed: f.seed,
		Concurrency: f.concurrency, Secret: secret, AllowRemote: f.allowRemote, TLS: p.tls, MaxRPS: p.maxRPS,
		URL: f.forwardTo, EventType: p.eventTypes[pol.Name], RunID: p.runID, SettleLimit: p.settle,
		TargetName: f.forwardTo + " (real deliveries from " + ln.Addr().String() + ")",
	}
	if f.effectsURL != "" {
		closeOracle, err := openOracle(ctx, &f.runFlags, p, &cfg)
		if err != nil {
			ln.Close()
			return err
		}
		defer closeOracle()
	}
	cfg.Sink = outs.sink(ctx, report.NewEventLines(stderr, in.TypeOf).Add)
	runErr := in.Run(ctx, ln, cfg, ending)
	if errors.Is(runErr, simulator.ErrConfig) {
		return badInput(runErr)
	}
	if runErr != nil {
		return runErr
	}
	fmt.Fprintln(stderr, in.Summary())
	return outs.finish(ctx, cmd, p)
}

// validateProxy checks proxy's flags: those shared with run by run's own
// rules, then its own; it returns the plan, the one policy and its secret.
func (f *proxyFlags) validateProxy(ctx context.Context, st *settings, stderr io.Writer) (*plan, policies.Policy, string, error) {
	errs := advice.Proxy{
		Providers: len(f.providers), ForwardTo: f.forwardTo, Listen: f.listen, Captures: f.captures,
		MaxEvents: f.maxEvents, Duration: f.duration,
	}.Problems()
	if len(errs) > 0 {
		return nil, policies.Policy{}, "", badInput(errors.Join(errs...))
	}
	f.url = f.forwardTo
	p, err := f.validate(ctx, st, stderr)
	if err != nil {
		return nil, policies.Policy{}, "", err
	}
	pol := p.policies[0]
	secret, given := p.secrets[pol.Provider]
	if !given {
		secret, given = st.secret(pol.Provider)
	}
	if !given {
		return nil, pol, "", badInput(advice.ProxySecret(pol.Provider))
	}
	return p, pol, secret, nil
}

// proxyEndNote is what the first Ctrl-C does to the proxy: it ends it.
const proxyEndNote = "ending: no new delivery is taken; the events taken in finish their schedules, the effects settle, and the report follows"

var proxyInterruptNote = interrupt.Note{
	First: "the events' schedules are cut: the attempts in flight finish, the events are marked interrupted, and the report follows",
	Again: "; the results file, if any, is left out",
}
