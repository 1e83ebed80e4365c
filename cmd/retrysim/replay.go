package main

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/retrysim/retrysim/policies"
	"github.com/retrysim/retrysim/report"
	"github.com/retrysim/retrysim/report/advice"
	"github.com/retrysim/retrysim/report/redact"
	"github.com/retrysim/retrysim/simulator"
	"github.com/retrysim/retrysim/simulator/capture"
	"github.com/retrysim/retrysim/simulator/demo"
	"github.com/retrysim/retrysim/simulator/interrupt"
)

type replayFlags struct {
	request     string
	entry       int
	provider    string
	times       int
	concurrent  bool
	url         string
	demoMode    string
	demoTTL     string
	secrets     []string
	effectsURL  string
	format      string
	allowRemote bool
	failOn      []string
	settle      string
	// captured is the capture file's content, once read.
	captured []byte
}

func newReplayCmd() *cobra.Command {
	f := &replayFlags{}
	cmd := &cobra.Command{
		Use:   "replay",
		Short: "Send one captured delivery again and again, and check the handler wrote once",
		Long: `Replay takes a delivery you captured — a raw HTTP request file, an entry of a HAR file, or
a curl command line ("Copy as cURL") — and sends it --times times to your handler: on the
provider's retry schedule in virtual time (send n carries the virtual time attempt n would
have, in the Retrysim-Virtual-Time header; nothing waits), or all at once with --concurrent,
so that the sends overlap in the handler. The body and the dedup id never change.

With --secret (or RETRYSIM_SECRET_<PROVIDER>, or secrets: in retrysim.yaml) each send is
signed afresh, with a fresh timestamp where the provider's scheme signs one; without it the
captured signature is sent as it is. Without --url, replay serves the built-in demo handler
(--demo MODE) and signs with the secret it expects.

It then reports what a careful engineer checks by hand, asking the effects oracle after
every send: the first call wrote, and the other calls answered 2xx without writing.

Examples:
  retrysim replay --request delivery.http --demo idempotent
  retrysim replay --request delivery.http --demo check-then-act --concurrent
  retrysim replay --request capture.har --entry 3 --url http://127.0.0.1:3000/webhooks/stripe \
      --secret stripe=whsec_… --effects-url http://127.0.0.1:3000/_retrysim/effects
  retrysim replay --request curl.txt --times 3 --url http://127.0.0.1:8080/hooks --format json
  retrysim replay --request delivery.http --url http://127.0.0.1:3000/webhooks/stripe \
      --effects-url http://127.0.0.1:3000/_retrysim/effects --fail-on duplicate-effects

With --fail-on duplicate-effects, replay exits 1 unless the verdict is IDEMPOTENT (an
UNKNOWN verdict fails too: a CI gate that cannot be checked does not pass).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runReplay(cmd, f) },
	}
	fl := cmd.Flags()
	fl.StringVar(&f.request, "request", "", "the captured delivery: a raw HTTP request, a HAR file or a curl command line (- for stdin)")
	fl.IntVar(&f.entry, "entry", 0, "which entry of a HAR file to send, from 1 (default: the only POST entry)")
	fl.StringVar(&f.provider, "provider", "", "policy whose schedule and timeout to use (default: the provider the capture's signature headers name)")
	fl.IntVar(&f.times, "times", simulator.DefaultReplayTimes, "how many times to send the delivery")
	fl.BoolVar(&f.concurrent, "concurrent", false, "send them all at once, overlapping, instead of on the schedule")
	fl.StringVar(&f.url, "url", "", "your handler's URL (default: serve the built-in demo handler on 127.0.0.1)")
	fl.StringVar(&f.demoMode, "demo", string(demo.Naive), "demo handler mode when --url is not given: "+strings.Join(demo.ModeNames(), ", "))
	fl.StringVar(&f.demoTTL, "demo-ttl", policies.FormatDuration(demo.DefaultTTL), "how long the ttl demo handler keeps a dedup key (virtual time)")
	fl.StringArrayVar(&f.secrets, "secret", nil, "signing secret as provider=value: re-sign every send (also RETRYSIM_SECRET_<PROVIDER> or secrets: in the config; the demo handler needs none)")
	fl.StringVar(&f.effectsURL, "effects-url", "", `URL answering {"<dedup id>": <times processed>}, asked before the first send, after every send, and after the last until the counts settle (--settle)`)
	fl.StringVar(&f.format, "format", report.FormatText, "report format: "+strings.Join(report.ReplayFormats(), " or "))
	fl.StringVar(&f.settle, "settle", policies.FormatDuration(simulator.DefaultSettle), settleUsage)
	fl.BoolVar(&f.allowRemote, "allow-remote", false, "allow a --url that is not on this machine (127.0.0.0/8, ::1, localhost)")
	fl.StringSliceVar(&f.failOn, "fail-on", nil, "exit 1 when this gate fails: "+string(report.GateDuplicateEffects)+" (the handler wrote more than once)")
	return cmd
}

func runReplay(cmd *cobra.Command, f *replayFlags) error {
	st, err := loadConfig(cmd)
	if err != nil {
		return err
	}
	st.redactGiven(cmd.Context(), cmd.ErrOrStderr(), f.secrets)
	secretsOf(cmd.Context()).Add(slices.Concat(redact.URLSecrets(f.url), redact.URLSecrets(f.effectsURL))...)
	ctx, stop := interruptible(cmd.Context(), cmd.ErrOrStderr(), runInterruptNote, nil)
	defer stop()
	cfg, mode, ttl, err := f.validate(st, cmd.InOrStdin())
	if err != nil {
		return err
	}
	if err := checkReplayTargets(cmd, f); err != nil {
		return err
	}
	secrets, _ := advice.Secrets(f.secrets)
	provider := cfg.Policy.Provider
	if provider == "" {
		w, err := simulator.DetectWire(cfg.Capture)
		if err != nil {
			if c := cfg.Capture; c.Method != http.MethodPost {
				return badInput(advice.NotADelivery(f.request, f.entry, c, f.captured))
			}
			return badInput(fmt.Errorf("--request: %w (pass --provider)", err))
		}
		provider = w.Name()
	}
	secret, given := st.secretFor(secrets, provider)
	if given {
		cfg.Secret = secret
	}
	target := f.url
	if f.url == "" {
		if !given {
			// The demo handler is ours: sign with the secret it expects.
			cfg.Secret = policies.GenerateSecret(provider, simulator.DefaultSeed)
		}
		srv, err := startDemo(mode, provider, cfg.Secret, demo.WithTTL(ttl))
		if err != nil {
			return fmt.Errorf("demo handler: %w", err)
		}
		defer srv.close()
		cfg.URL = srv.URL
		cfg.Effects = srv.Handler.Effects
		cfg.EffectsExact = true // it waits for its own queue
		target = fmt.Sprintf("built-in demo handler (%s, SQLite) %s", mode, srv.URL)
	}
	if f.effectsURL != "" {
		cfg.Effects = simulator.EffectsOf(simulator.OracleAt(f.effectsURL, f.allowRemote))
		cfg.EffectsExact = false
	}
	res, err := simulator.Replay(ctx, cfg)
	if err != nil {
		if errors.Is(err, simulator.ErrConfig) || errors.Is(err, simulator.ErrRemoteTarget) {
			return badInput(advice.Target(err))
		}
		return err
	}
	if !res.Resigned && res.Timestamped {
		fmt.Fprintf(cmd.ErrOrStderr(), "retrysim: the %s signature carries the capture's timestamp and no --secret was given: a handler that checks it answers 401; pass --secret %s=… to re-sign each send\n", res.Provider, res.Provider)
	}
	// A password in the URL's userinfo is sent, never shown; what the
	// handler controls is printed with its control characters escaped.
	redact.Replay(res)
	target = simulator.DisplayURL(target)
	if err := report.WriteReplay(cmd.OutOrStdout(), res, f.format, target, advice.Flag); err != nil {
		return err
	}
	if interrupt.Interrupted(ctx) {
		return &exitError{code: exitInterrupted, err: errors.New("interrupted: the report above covers the sends made before the interrupt")}
	}
	if len(f.failOn) > 0 && res.Verdict() != simulator.VerdictIdempotent {
		return &exitError{code: exitGate, err: fmt.Errorf("gate %s did not pass: %s", report.GateDuplicateEffects, report.ReplayVerdictLine(res, advice.Flag))}
	}
	return nil
}

// validate reads the flags and the capture; every problem is reported at
// once and exits 2.
func (f *replayFlags) validate(st *settings, stdin io.Reader) (cfg simulator.ReplayConfig, mode demo.Mode, ttl time.Duration, err error) {
	var errs []error
	cfg = simulator.ReplayConfig{Times: f.times, Concurrent: f.concurrent, URL: f.url, AllowRemote: f.allowRemote}
	if cfg.SettleLimit, err = parseSettle(f.settle); err != nil {
		errs = append(errs, err)
	}
	if f.request == "" {
		errs = append(errs, errors.New("--request: name the captured delivery (a raw HTTP request file, a HAR file, or a curl command line)"))
	} else if c, data, err := capture.Read(f.request, stdin, f.entry); err != nil {
		errs = append(errs, fmt.Errorf("--request %s: %w", f.request, err))
	} else {
		cfg.Capture, f.captured = c, data
	}
	if f.provider != "" {
		if cfg.Policy, err = st.policy(f.provider); err != nil {
			errs = append(errs, fmt.Errorf("--provider: %w", err))
		}
	}
	if f.entry < 0 {
		errs = append(errs, fmt.Errorf("--entry: %d is not an entry: HAR entries count from 1", f.entry))
	}
	if err := advice.ReplayOracle(f.effectsURL); err != nil {
		errs = append(errs, err)
	}
	if err := advice.Limit("times", "", simulator.CheckReplayTimes(f.times)); err != nil {
		errs = append(errs, err)
	}
	if f.url == "" {
		if mode, err = demo.ParseMode(f.demoMode); err != nil {
			errs = append(errs, fmt.Errorf("--demo: %w", err))
		}
	}
	if ttl, err = parseTTL("demo-ttl", f.demoTTL); err != nil {
		errs = append(errs, err)
	}
	if _, err := advice.Secrets(f.secrets); err != nil {
		errs = append(errs, err)
	}
	errs = append(errs, advice.ReplayGates(f.failOn, f.url != "" && f.effectsURL == "")...)
	if err := formatFlag(f.format, report.ReplayFormats()); err != nil {
		errs = append(errs, err)
	}
	if len(errs) > 0 {
		return cfg, mode, ttl, badInput(errors.Join(errs...))
	}
	return cfg, mode, ttl, nil
}

// checkReplayTargets refuses a --url or --effects-url off this machine
// unless --allow-remote, before anything is sent.
func checkReplayTargets(cmd *cobra.Command, f *replayFlags) error {
	var errs []error
	if f.url != "" {
		errs = append(errs, checkTarget(cmd.Context(), "--url", f.url, f.allowRemote)...)
	}
	if f.effectsURL != "" {
		errs = append(errs, checkTarget(cmd.Context(), "--effects-url", f.effectsURL, f.allowRemote)...)
	}
	return badInput(errors.Join(errs...))
}
