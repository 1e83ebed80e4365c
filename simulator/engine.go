// Package simulator is retrysim's engine. It replays a provider's retry
// schedule on virtual time against a real handler: it generates the workload
// from the seed, asks the policy when each attempt is due, asks the scenario
// which fault applies, sends each attempt as a real HTTP request (or through
// an http.Handler, or not at all in a dry run), classifies the outcome as the
// provider would, and emits one Record per attempt.
//
// Virtual time decides when attempts happen; real time decides how long one
// takes. The engine schedules by causality, not in waves: within an event
// attempt n+1 waits for attempt n's answer, and across events only the
// couplings named in couplings.go hold an attempt back (the endpoint-disable
// rule's safe lookahead, restarts, the order of events about one object, the
// rate cap). Answers are applied and records emitted in virtual-time order
// through a reorder buffer, so a run's records are the same at any
// concurrency, and a run lasts as long as its longest chain of real waits.
//
// Where to find what: schedule.go (what is sent when), couplings.go (what
// holds an attempt back), attempt.go (one attempt, sent), fault.go and
// fault_*.go (where a fault takes effect, one file per effect), judge.go (how the provider judges an answer), fate.go (an event's fate),
// records.go (the records emitted), and this file (a run's start and end).
package simulator

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/retrysim/retrysim/policies"
	"github.com/retrysim/retrysim/scenarios"
	"github.com/retrysim/retrysim/simulator/oracle"
)

// Result sums up a run. The records say everything; Result is what a Go
// caller most often wants without reading them.
type Result struct {
	// Events is the number of events that started.
	Events int
	// Attempts is the number of attempts made, one per attempt record: the
	// second request of a duplicated attempt counts, and so does a manual
	// resend.
	Attempts int
	// Delivered is the number of events the provider saw delivered.
	Delivered int
	// Arrivals is the number of attempts that reached the handler.
	Arrivals int
	// Lost is the number of events never delivered (schedule exhausted,
	// endpoint disabled, or retries stopped).
	Lost int
	// DisabledAt is when the provider disabled the endpoint; zero if never.
	DisabledAt time.Time
	// TenantsDisabled is how many tenants' subscriptions were disabled,
	// in a run of several tenants (Config.Tenants).
	TenantsDisabled int
	// Restarts is the number of restarts of the handler, one that failed
	// and stopped the run included (Run then returns a RestartError): as
	// the restart records number them.
	Restarts int
	// Attacks is the number of requests sent that the handler had to
	// reject: the scenario's signature attacks and the provider's own
	// invalid-signature probe (one attack record each).
	Attacks int
	// Interrupted says the run stopped before its end.
	Interrupted bool
	// RunID is the run id mixed into every dedup id (Config.RunID).
	RunID string
	// Effects is how many times the handler processed each of the run's
	// events (and attack requests) during the run, by dedup id, when an
	// effects oracle was given and answered: its count after the run less
	// its count before, for the ids processed during the run; else nil.
	Effects map[string]int
	// SettleWait is the real time spent reading the oracle of a handler behind
	// a URL until its answer settled (see Config.SettleLimit).
	SettleWait time.Duration
	// HandlersRunning is how many in-process handler calls were still
	// running when the effects were read and Run returned: calls the
	// provider cut off that did not finish within one more timeout. Their
	// effects, if they ever happen, are not in Effects.
	HandlersRunning int
	// EffectsUnsettled says the effects oracle was still changing (or
	// could not be read again) when retrysim stopped reading it, after a
	// request had reached the handler and got no answer: Effects may miss
	// the handler's late work.
	EffectsUnsettled bool
	// EffectsPending is the work the oracle still reported queued when
	// retrysim stopped reading it unsettled; 0 otherwise.
	EffectsPending int
	// SettledOnQuiet is the quiet window the effects settled on, when the
	// oracle reports no pending work and the handler was seen working after
	// it answered: the verdict then rests on the quiet alone. 0 otherwise.
	SettledOnQuiet time.Duration
}

// Run simulates one provider delivering cfg.Events events to the target and
// sends every record to cfg.Sink. A cancelled ctx stops new attempts; those in
// flight finish within the provider's timeout and the run ends with an
// interrupted record.
func Run(ctx context.Context, cfg Config) (*Result, error) {
	if err := cfg.providerDefaults(); err != nil {
		return nil, err
	}
	c, err := cfg.resolve()
	if err != nil {
		return nil, err
	}
	e := newEngine(c)
	defer e.release()
	return e.run(ctx)
}

// providerDefaults applies what the policy itself says about the run: the
// connection overrides in the URL fragment (Twilio) and the policy's default
// event type, which must be one the wire format knows.
func (c *Config) providerDefaults() error {
	if c.Policy.Wire() == nil {
		return nil // resolve reports it
	}
	if c.URL != "" {
		p, err := c.Policy.WithURLOverrides(c.URL)
		if err != nil {
			return fmt.Errorf("%w: %w", ErrConfig, err)
		}
		c.Policy = p
	}
	if c.EventType == "" {
		c.EventType = c.Policy.EventType
	}
	if c.EventType != "" {
		if err := policies.CheckEventType(c.Policy.Wire(), c.EventType); err != nil {
			return fmt.Errorf("%w: %w", ErrConfig, err)
		}
	}
	return nil
}

type engine struct {
	cfg     Config
	wire    policies.Wire
	client  *http.Client
	rate    *rateLimiter // nil: no cap
	work    workload
	q       queue
	live    liveEvents
	arrived int // events whose first attempt has been queued
	dis     disabler
	ten     tenancy // the tenants' own state (tenant.go)
	timeout time.Duration
	// blackHoleErr is the error of every attempt a black hole swallows,
	// worded once per run rather than once per attempt.
	blackHoleErr string
	restarts     []int64 // restart moments still to come, sorted, as due.at
	// restartFailed is the restart that failed and stopped the run; nil
	// while none has.
	restartFailed *RestartError
	target        string // the URL signed and sent to
	base          Record
	// out and att are the records handed to the sink, which may not keep
	// them: out for every kind but attempts, att for attempts only, so
	// that att's fields after the attempt's own are always zero.
	out Record
	att Record
	// attShared says att holds the fields every attempt of the run shares.
	attShared bool
	// unixStart says virtual may add offsets to the start's Unix time,
	// startSec and startNsec.
	unixStart           bool
	startSec, startNsec int64
	res                 Result
	// disabledBy says, in words, what disabled the endpoint; disabledCause
	// which kind of thing.
	disabledBy    string
	disabledCause DisableCause
	// dec decides the attempts performed on the engine's own goroutine
	// (a serial run); sch performs them concurrently.
	dec *scenarios.Decider
	sch scheduler
	// readsNext says the scenario reads its Context's Next.
	readsNext bool
	// gaps is the shortest wait after each attempt number before the
	// event's next attempt (see gapAfter).
	gaps []int64
	// sentAfterDisable counts attempts found sent after the endpoint was
	// disabled: the lookahead promises none.
	sentAfterDisable int
	// lastAt is the virtual time of the latest attempt committed (as
	// due.at: from the start; 0 before any): when an interruption or the
	// end of the run happens, in virtual time.
	lastAt int64
	// unstarted are events whose first attempt an interruption kept from
	// being sent, after they were started.
	unstarted []int
	// lastCutOff is when a request last reached the handler and got no
	// answer, on the wall clock (zero when none did): the handler may still
	// have been at work on it.
	lastCutOff time.Time
	// oracle is the effects oracle (Config.Oracle, or Config.Effects);
	// nil when there is none. fx is what it needs kept over the run.
	oracle oracle.Oracle
	fx     runEffects
	// incoming are the real deliveries that arrived and have not started
	// (Config.Incoming); horizon is the latest virtual time an attempt was
	// sent at, and lastArrival the latest a delivery was placed at.
	// cur are the names of the event whose attempt is being made, in a
	// dry run whose queue carries them.
	cur          currentNames
	incoming     incomingEvents
	incomingDone bool     // Config.Incoming was closed
	liveIDs      []string // the dedup ids of the real deliveries, by place
	horizon      int64
	lastArrival  int64
}

func newEngine(cfg Config) *engine {
	e := &engine{
		cfg:          cfg,
		wire:         cfg.Policy.Wire(),
		dis:          newDisabler(&cfg.Policy),
		ten:          newTenancy(&cfg),
		timeout:      cfg.Policy.Timeout.D(),
		blackHoleErr: (&exchangeTimeout{limit: cfg.Policy.Timeout.D()}).Error() + ": the request went nowhere (injected)",
		target:       signedURL(cfg.URL),
	}
	if cfg.Handler != nil {
		e.target = "http://in-process" + cfg.handlerPath()
	}
	switch {
	case cfg.Oracle != nil:
		e.oracle = cfg.Oracle
	case cfg.Effects != nil:
		e.oracle = cfg.Effects
	}
	// A manual redelivery is an attempt caused by another: the lookahead
	// must not reach past the earliest one either.
	redelivery, manual := cfg.Scenario.EarliestRedelivery()
	e.gaps = nextGaps(&cfg.Policy, int64(redelivery), manual && cfg.Policy.ManualRedelivery.D() > 0)
	for _, r := range cfg.Scenario.Restarts() {
		e.restarts = append(e.restarts, int64(r))
	}
	e.res.RunID = cfg.RunID
	// A dry run of generated events keeps nothing the seed makes again;
	// its queue carries each event's names from one attempt to the next.
	e.live.withExt = !cfg.DryRun || cfg.Incoming != nil
	e.q.carry = !e.live.withExt
	e.q.popTo = &e.cur.carried
	e.cur.event = -1
	e.readsNext = cfg.Scenario.ReadsNext()
	e.work = workload{seed: cfg.Seed, ids: runKey(cfg.RunID), n: cfg.Events, start: cfg.Start, over: cfg.Over, wire: e.wire, typ: cfg.EventType, version: cfg.Policy.APIVersion, payloads: cfg.Payloads, tenants: cfg.Tenants}
	if !cfg.DryRun {
		e.client = cfg.Client
		if e.client == nil {
			e.client = newClient(&cfg)
		}
		e.rate = newRateLimiter(cfg.MaxRPS, cfg.WallClock)
	}
	e.base = Record{Provider: e.wire.Name(), Policy: cfg.Policy.Name, Scenario: cfg.Scenario.Name, Seed: cfg.Seed}
	e.unixStart, e.startSec, e.startNsec = plainUTC(cfg.Start), cfg.Start.Unix(), int64(cfg.Start.Nanosecond())
	return e
}

// emit sends r to the sink, through the engine's own record: a record
// handed to a sink by pointer must not escape to the heap.
func (e *engine) emit(r Record) error {
	e.out = r
	return e.emitOut()
}

// emitOut sends the record already built in e.out.
func (e *engine) emitOut() error {
	e.noteEffects(&e.out)
	return e.sink(&e.out)
}

func (e *engine) run(ctx context.Context) (*Result, error) {
	if err := e.emit(e.runRecord()); err != nil {
		return nil, err
	}
	e.readBaseline(ctx)
	if err := e.announceAttacks(); err != nil {
		return nil, err
	}
	removed, err := e.handshake(ctx)
	if err != nil {
		return nil, err
	}
	if !removed {
		removed, err = e.probe(ctx)
	}
	if err != nil {
		return nil, err
	}
	if removed {
		// The endpoint failed the provider's probe before any event: none
		// is ever sent.
		if err := e.drain(FateDisabled, true); err != nil {
			return &e.res, err
		}
		return &e.res, e.finish(ctx)
	}
	if err := e.schedule(ctx); err != nil {
		return &e.res, err
	}
	if err := e.finish(ctx); err != nil {
		return &e.res, err
	}
	if e.restartFailed != nil {
		return &e.res, e.restartFailed
	}
	return &e.res, nil
}

// finish lets the handler settle, asks the effects oracle and closes the
// run.
func (e *engine) finish(ctx context.Context) error {
	end := e.base
	end.Kind, end.Interrupted = KindEnd, e.res.Interrupted
	end.Time = e.endTime()
	if !e.res.DisabledAt.IsZero() {
		t := e.res.DisabledAt
		end.DisabledAt = &t
		end.DisabledBy, end.DisabledCause = e.disabledBy, e.disabledCause
	}
	for _, p := range e.dis.pauses {
		end.Pauses = append(end.Pauses, [2]time.Duration{p[0].Sub(e.cfg.Start), p[1].Sub(e.cfg.Start)})
	}
	// The handler calls the provider cut off may still be running: give
	// them their time before their effects are read and Run returns.
	e.res.HandlersRunning = e.waitForHandler(ctx)
	end.HandlersRunning = e.res.HandlersRunning
	if err := e.emitEffects(ctx, &end); err != nil {
		return err
	}
	return e.emit(end)
}
