package simulator

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/retrysim/retrysim/policies"
	"github.com/retrysim/retrysim/scenarios"
	"github.com/retrysim/retrysim/simulator/oracle"
)

// Defaults for a Config's zero fields.
const (
	DefaultEvents      = 20
	DefaultOver        = time.Hour
	DefaultSeed        = 1
	DefaultConcurrency = 32
)

// Caps on a run, far above real use, so a typo cannot start a run that never
// ends.
const (
	MaxEvents      = 10_000_000
	MaxConcurrency = 4096
	MaxOver        = 366 * policies.Day
	MaxSettle      = policies.Day
)

// Defaults for the wait for a handler's effects to settle (Config.SettleLimit,
// Config.SettleQuiet).
const (
	DefaultSettle      = 30 * time.Second
	DefaultSettleQuiet = 2 * time.Second
)

// DefaultStart is the virtual time a run starts at unless Config.Start says
// otherwise: fixed, so the same seed gives the same timeline.
func DefaultStart() time.Time { return time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC) }

// ErrConfig is returned, wrapped, for a Config that cannot run.
var ErrConfig = errors.New("invalid run configuration")

// Sink receives every record of a run, in order, from one goroutine. An
// error stops the run.
//
// The record is lent for the call only: the engine reuses it for the next
// record, so a sink that keeps a record keeps a copy (append(kept, *r)),
// and a sink never changes it. (Copying the 840-byte record into every
// call was a fifth of a model run's time.) Under the race detector the
// engine panics when a sink changed a record, and spoils each record after
// its call, so that a sink's tests catch either mistake.
type Sink func(*Record) error

// EffectsFunc is the effects oracle: how many times the handler processed
// each event, by dedup id.
type EffectsFunc func(ctx context.Context) (map[string]int, error)

// Config describes one run: one policy, one scenario, one target.
type Config struct {
	// Policy is the provider's behaviour. Required.
	Policy policies.Policy
	// Scenario is the fault model; the zero Scenario injects nothing.
	Scenario scenarios.Scenario
	// DefaultScenario says Scenario is the caller's default, not one the
	// user chose; run records carry it so reports can say so.
	DefaultScenario bool

	// URL is the handler's address. Exactly one of URL, Handler and DryRun
	// names the target.
	URL string
	// Handler is an in-process target: requests go through ServeHTTP with no
	// socket, to HandlerPath.
	Handler http.Handler
	// HandlerPath is the path (and query) the in-process Handler's requests
	// are sent to; empty means /webhooks/<provider>, as in the URL form
	// srv.URL + "/webhooks/stripe". Twilio signs the whole URL, path included.
	HandlerPath string
	// Handshake sends the provider's handshake first, where the policy's
	// wire has one (Slack's url_verification, Zoom's
	// endpoint.url_validation, Discord's PING), as the provider does when
	// the endpoint is set up; an endpoint that answers it wrongly receives
	// no event.
	Handshake bool
	// DryRun models the handler as answering 200 at once; nothing is sent.
	DryRun bool
	// TargetName labels the target in records; it defaults to URL.
	TargetName string

	// Events is the number of events; 0 means DefaultEvents.
	Events int
	// Over is the span over which first attempts are spread; 0 means
	// DefaultOver.
	Over time.Duration
	// Seed keys every random choice; 0 means DefaultSeed.
	Seed uint64
	// RunID is mixed into every event's and attack's dedup id, so that two
	// runs against one handler never share an id; the seed alone decides
	// the timeline and the faults. Empty means a fresh one (NewRunID); give
	// a run's id again to reproduce its ids exactly.
	RunID string
	// Concurrency bounds the attempts in flight; 0 means DefaultConcurrency.
	Concurrency int
	// EventType overrides the wire format's default event type.
	EventType string
	// Secret signs every request.
	Secret string
	// Payloads, when set, makes the events' bodies (and, where a payload
	// says it, their types) from the user's own payloads.
	Payloads Payloads
	// Header is added to every request sent to the handler (a staging
	// gateway's token, say); CheckHeaders refuses one the provider's wire
	// writes itself.
	Header http.Header

	// Clock is the engine's source of now. Nil means a fake clock at Start,
	// advanced by the engine. With Realtime, nil means the real clock.
	Clock clockwork.Clock
	// Realtime makes the engine wait for real time to reach each attempt.
	Realtime bool
	// Start is the virtual time of the run's start; zero means DefaultStart
	// (or the clock's now, with Realtime).
	Start time.Time
	// WallClock gives the wall-clock time for signature timestamps and for
	// measuring latency; nil means the real clock.
	WallClock clockwork.Clock

	// AllowRemote lets the engine connect to addresses that are not
	// loopback. Without it every connection, redirects included, must stay
	// on this machine.
	AllowRemote bool
	// MaxRPS caps the real rate of requests sent to the target, in requests
	// a second, spaced evenly on the wall clock; 0 means no cap. An attempt
	// waiting for its turn does not count against its timeout.
	MaxRPS float64
	// TLS configures HTTPS targets (custom CA, or skipping verification).
	TLS *tls.Config
	// Client, when set, replaces the HTTP client the engine builds. Its
	// timeout is the caller's to set. The engine follows the policy's
	// redirects itself, re-sending the same POST; a client that follows
	// redirects on its own (the default) turns a POST into a bodyless GET
	// on a 301, 302 or 303, so give it a CheckRedirect that returns
	// http.ErrUseLastResponse.
	Client *http.Client

	// Tenants is the number of senders the events come from (shops,
	// connected accounts, installations), each with a subscription of its
	// own (see tenant.go); 0 means 1, the run as it was before tenants.
	Tenants int
	// Shard, when its Of is set, runs only the tenants in that shard of
	// the run; the zero Shard runs them all. A sharded run needs Tenants
	// above 1 and a RunID shared by every shard.
	Shard Shard

	// Incoming, when set, feeds the run real deliveries instead of the
	// seeded workload: each one becomes the next event, sent from the
	// moment it arrives (after every attempt already sent, in virtual
	// time) under the policy and the scenario. The run ends once the
	// channel is closed and every event's schedule has ended; Events is
	// then ignored. Each delivery must pass CheckIncoming.
	Incoming <-chan Incoming

	// Sink receives the records. Nil discards them.
	Sink Sink
	// Effects, when set, is asked before the run (a baseline) and after it
	// how often each event was processed; the run reports what changed,
	// for its own ids.
	Effects EffectsFunc
	// Oracle is the effects oracle as an interface: set it instead of
	// Effects to read one that reports pending work (oracle.HTTP of an
	// endpoint answering {"effects": {…}, "pending": N}, oracle.OpenSQL of
	// the handler's database with a pending query). While it reports work
	// pending, the engine keeps reading, up to SettleLimit.
	Oracle oracle.Oracle
	// EffectsExact says Effects answers only once the handler's work is
	// done (a handler the caller runs, which waits for its own queue): it
	// is read once at the end, with no quiet period.
	EffectsExact bool
	// SettleLimit is the longest real time the engine waits, after the last
	// attempt, for a handler behind a URL to finish the work it took in:
	// it reads the oracle until every event the handler accepted is
	// reported and, when the oracle reports pending work, none is left,
	// or else nothing has changed for the quiet window. A read of the
	// oracle that is under way at the limit may take up to 5 s more (a
	// database's read before the run, up to 10 s), so that a loaded
	// machine does not cut a read that would have answered. 0 means
	// DefaultSettle; an in-process Handler is waited for exactly instead.
	// Pending work still reported at the limit leaves the effects
	// unsettled: no IDEMPOTENT verdict.
	SettleLimit time.Duration
	// SettleQuiet is the least time the answer of an oracle that reports
	// no pending work must stay the same to count as settled; the window
	// grows to twice the longest gap seen between two changes. 0 means
	// DefaultSettleQuiet, or half of SettleLimit when that is shorter.
	SettleQuiet time.Duration
	// Restart restarts the handler. The engine calls it at each of the
	// scenario's restart moments, a barrier: every attempt due before the
	// moment has finished, none due after it has started. It is
	// required when the scenario restarts the handler, except in a dry run.
	// A restart that fails stops the run there: nothing more is sent, the
	// events still in flight end interrupted, the run is closed as an
	// interrupted one, and Run returns a *RestartError.
	Restart RestartFunc
}

// RestartFunc kills the handler and starts it again, returning once it
// accepts requests.
type RestartFunc func(ctx context.Context) error

// RestartError is the error of a run that stopped because the Restart
// hook failed: the run's records, the restart record with Error among
// them, and its end record were emitted before Run returned it.
type RestartError struct {
	// At is the restart's moment, since the start of the run.
	At time.Duration
	// Err is the hook's error.
	Err error
}

func (e *RestartError) Error() string {
	return fmt.Sprintf("restarting the handler at +%s: %v", policies.FormatDuration(e.At), e.Err)
}

func (e *RestartError) Unwrap() error { return e.Err }

// resolve returns the config a run uses: each field left at zero given its
// default, and every field checked, all problems joined into one error.
// (providerDefaults, before it, applies what the policy itself says.)
func (c *Config) resolve() (Config, error) {
	cfg := *c
	givenRunID := cfg.RunID
	if cfg.Tenants == 0 {
		cfg.Tenants = 1
	}
	if cfg.Events == 0 && cfg.Incoming == nil {
		cfg.Events = DefaultEvents
	}
	if cfg.Over == 0 {
		cfg.Over = DefaultOver
	}
	if cfg.Seed == 0 {
		cfg.Seed = DefaultSeed
	}
	if cfg.Concurrency == 0 {
		cfg.Concurrency = DefaultConcurrency
	}
	settleErr := resolveSettle(&cfg.SettleLimit, &cfg.SettleQuiet)
	var errs []error
	if cfg.RunID == "" {
		cfg.RunID = NewRunID()
	} else if err := CheckRunID(cfg.RunID); err != nil {
		errs = append(errs, err)
	}
	if settleErr != nil {
		errs = append(errs, settleErr)
	}
	if cfg.Policy.Wire() == nil {
		errs = append(errs, errors.New("no policy (or a policy whose Init was not called)"))
	}
	targets := 0
	if cfg.URL != "" {
		targets++
		if u, err := url.Parse(cfg.URL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			errs = append(errs, fmt.Errorf("URL %q is not an http:// or https:// address", cfg.URL))
		}
	}
	if cfg.Handler != nil {
		targets++
	}
	if cfg.HandlerPath != "" && (cfg.Handler == nil || !strings.HasPrefix(cfg.HandlerPath, "/")) {
		errs = append(errs, fmt.Errorf("HandlerPath %q needs a Handler and must start with /", cfg.HandlerPath))
	}
	if cfg.DryRun {
		targets++
	}
	if targets != 1 {
		errs = append(errs, errors.New("give exactly one target: URL, Handler or DryRun"))
	}
	// The limits, checked in limits.go; Events is ignored when the
	// deliveries are Incoming.
	for _, err := range []error{CheckOver(cfg.Over), CheckConcurrency(cfg.Concurrency), CheckSeed(cfg.Seed)} {
		if err != nil {
			errs = append(errs, err)
		}
	}
	if cfg.Incoming == nil {
		if err := CheckEvents(cfg.Events); err != nil {
			errs = append(errs, err)
		}
	}
	if err := CheckMaxRPS(cfg.MaxRPS); err != nil {
		errs = append(errs, err)
	}
	errs = append(errs, cfg.checkTenancy(givenRunID)...)
	if cfg.Policy.Wire() != nil {
		if err := CheckHeaders(cfg.Policy.Wire(), cfg.Header); err != nil {
			errs = append(errs, err)
		}
	}
	if cfg.Oracle != nil && cfg.Effects != nil {
		errs = append(errs, errors.New("give one effects oracle: Oracle or Effects"))
	}
	if cfg.Incoming != nil && cfg.DryRun {
		errs = append(errs, errors.New("a dry run sends nothing: it cannot take real deliveries"))
	}
	if r := cfg.Scenario.Restarts(); len(r) > 0 && cfg.Restart == nil && !cfg.DryRun {
		errs = append(errs, fmt.Errorf("scenario %s restarts the handler (first at +%s) but no Restart hook was given", cfg.Scenario.Name, policies.FormatDuration(r[0])))
	}
	if len(errs) > 0 {
		return cfg, fmt.Errorf("%w: %w", ErrConfig, errors.Join(errs...))
	}
	if cfg.EventType == "" {
		cfg.EventType = cfg.Policy.Wire().DefaultEventType()
	}
	if cfg.TargetName == "" {
		switch {
		case cfg.URL != "":
			cfg.TargetName = cfg.URL
		case cfg.DryRun:
			cfg.TargetName = "model (dry run: the handler answers 200 at once)"
		default:
			cfg.TargetName = "in-process http.Handler " + cfg.handlerPath()
		}
	}
	if cfg.WallClock == nil {
		cfg.WallClock = clockwork.NewRealClock()
	}
	if cfg.Clock == nil {
		if cfg.Realtime {
			cfg.Clock = clockwork.NewRealClock()
		} else {
			start := cfg.Start
			if start.IsZero() {
				start = DefaultStart()
			}
			cfg.Clock = clockwork.NewFakeClockAt(start)
		}
	}
	if cfg.Start.IsZero() {
		cfg.Start = cfg.Clock.Now()
	}
	if cfg.Sink == nil {
		cfg.Sink = func(*Record) error { return nil }
	}
	return cfg, nil
}

// handlerPath is where the in-process Handler's requests go.
func (cfg *Config) handlerPath() string {
	if cfg.HandlerPath != "" {
		return cfg.HandlerPath
	}
	return "/webhooks/" + cfg.Policy.Provider
}
