// Package simulator is retrysim's engine. It replays a provider's retry
// schedule on virtual time against a real handler: it generates the workload
// from the seed, asks the policy when each attempt is due, asks the scenario
// which fault applies, sends each attempt as a real HTTP request (or through
// an http.Handler, or not at all in a dry run), classifies the outcome as the
// provider would, and emits one Record per attempt.
//
// Virtual time decides when attempts happen; real time decides how long one
// takes. Attempts due within the policy's smallest retry delay of the
// earliest pending one cannot affect each other's schedule, so the engine
// sends them together (conservative lookahead): a run's wall time follows the
// number of such waves, not the number of attempts.
package simulator

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/retrysim/retrysim/policies"
	"github.com/retrysim/retrysim/scenarios"
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
	// Restarts is the number of times the handler was restarted.
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
	// Settled is the real time spent reading the oracle of a handler behind
	// a URL until its answer settled (see Config.Settle).
	Settled time.Duration
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
}

// Run simulates one provider delivering cfg.Events events to the target and
// sends every record to cfg.Sink. A cancelled ctx stops new attempts; those in
// flight finish within the provider's timeout and the run ends with an
// interrupted record.
func Run(ctx context.Context, cfg Config) (*Result, error) {
	if err := cfg.providerDefaults(); err != nil {
		return nil, err
	}
	c, err := cfg.withDefaults()
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
		return nil // withDefaults reports it
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
	cfg      Config
	wire     policies.Wire
	client   *http.Client
	rate     *rateLimiter // nil: no cap
	work     workload
	q        queue
	live     liveEvents
	arrived  int // events whose first attempt has been queued
	dis      disabler
	minDelay time.Duration
	timeout  time.Duration
	// blackHoleErr is the error of every attempt a black hole swallows,
	// worded once per run rather than once per attempt.
	blackHoleErr string
	restarts     []int64 // restart moments still to come, sorted, as due.at
	target       string  // the URL signed and sent to
	base         Record
	res          Result
	// disabledBy says, in words, what disabled the endpoint.
	disabledBy string
	// outs is reused from wave to wave; dec decides the attempts performed
	// on the engine's own goroutine, pool those performed concurrently.
	outs  []outcome
	dec   *scenarios.Decider
	pool  workers
	waves int // waves sent so far
	// lastAt is the virtual time of the latest attempt applied: when an
	// interruption or the end of the run happens, in virtual time.
	lastAt time.Time
	// unstarted are events whose first attempt an interruption kept from
	// being sent, after they were started.
	unstarted []int
	// lastCutOff is when a request last reached the handler and got no
	// answer, on the wall clock (zero when none did): the handler may still
	// have been at work on it.
	lastCutOff time.Time
	// fx is what the effects oracle needs kept over the run.
	fx runEffects
}

func newEngine(cfg Config) *engine {
	e := &engine{
		cfg:          cfg,
		wire:         cfg.Policy.Wire(),
		dis:          newDisabler(&cfg.Policy),
		minDelay:     cfg.Policy.MinDelay(),
		timeout:      cfg.Policy.Timeout.D(),
		blackHoleErr: fmt.Sprintf("no answer within the %s timeout: the request went nowhere (injected)", policies.FormatDuration(cfg.Policy.Timeout.D())),
		target:       signedURL(cfg.URL),
	}
	if cfg.Handler != nil {
		e.target = "http://in-process" + cfg.handlerPath()
	}
	// A manual redelivery is an attempt caused by another: the lookahead
	// must not reach past the earliest one either.
	if d, ok := cfg.Scenario.EarliestRedelivery(); ok && (e.minDelay < 0 || d < e.minDelay) {
		e.minDelay = d
	}
	for _, r := range cfg.Scenario.Restarts() {
		e.restarts = append(e.restarts, int64(r))
	}
	e.res.RunID = cfg.RunID
	e.work = workload{seed: cfg.Seed, ids: runKey(cfg.RunID), n: cfg.Events, start: cfg.Start, over: cfg.Over, wire: e.wire, typ: cfg.EventType, version: cfg.Policy.APIVersion}
	if !cfg.DryRun {
		e.client = cfg.Client
		if e.client == nil {
			e.client = newClient(&cfg)
		}
		e.rate = newRateLimiter(cfg.MaxRPS, cfg.WallClock)
	}
	e.base = Record{Provider: e.wire.Name(), Policy: cfg.Policy.Name, Scenario: cfg.Scenario.Name, Seed: cfg.Seed}
	return e
}

func (e *engine) emit(r Record) error {
	e.noteEffects(&r)
	return e.cfg.Sink(r)
}

func (e *engine) run(ctx context.Context) (*Result, error) {
	if err := e.emit(e.runRecord()); err != nil {
		return nil, err
	}
	e.readBaseline(ctx)
	defer e.pool.stop()
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
	e.queueArrival()
	var batch []due
	for e.q.Len() > 0 {
		if ctx.Err() != nil {
			e.res.Interrupted = true
			break
		}
		t0 := e.q.peek().at
		if len(e.restarts) > 0 && e.restarts[0] <= t0 {
			if err := e.restart(ctx); err != nil {
				if ctx.Err() != nil {
					e.res.Interrupted = true
					break
				}
				return &e.res, err
			}
			continue
		}
		if err := e.waitUntil(ctx, e.virtual(t0)); err != nil {
			e.res.Interrupted = true
			break
		}
		batch = e.takeWave(batch[:0], t0)
		e.waves++
		outs := e.perform(ctx, batch)
		disabled := false
		for i := range batch {
			if outs[i].unsent {
				e.unsent(&batch[i])
				continue
			}
			var err error
			if disabled, err = e.apply(&batch[i], &outs[i]); err != nil {
				return &e.res, err
			}
		}
		if disabled {
			if err := e.drain(FateDisabled, true); err != nil {
				return &e.res, err
			}
		}
	}
	if e.res.Interrupted {
		if err := e.drain(FateInterrupted, false); err != nil {
			return &e.res, err
		}
	}
	return &e.res, e.finish(ctx)
}

func (e *engine) runRecord() Record {
	p := &e.cfg.Policy
	r := e.base
	r.Kind = KindRun
	r.RunID, r.DryRun = e.cfg.RunID, e.cfg.DryRun
	r.Target = e.cfg.TargetName
	r.DefaultScenario = e.cfg.DefaultScenario
	r.Events = e.cfg.Events
	r.Summary = p.Summary
	r.DedupField = e.wire.DedupField()
	if s, ok := policies.SchemeOf(e.wire); ok {
		r.AdvisedToleranceS = s.AdvisedTolerance.Seconds()
	}
	r.MaxAttempt = p.MaxAttempts()
	r.WindowS = p.Window().Seconds()
	r.TimeoutS = p.Timeout.D().Seconds()
	r.ManualS = p.ManualRedelivery.D().Seconds()
	r.ScheduleS = make([]float64, p.MaxAttempts())
	for n := range r.ScheduleS {
		r.ScheduleS[n] = p.Offset(n + 1).Seconds()
	}
	if p.Disable != nil {
		r.DisableN = p.Disable.ConsecutiveFailures
		r.DisableS = p.Disable.Within.D().Seconds()
		r.DisableRule = p.Disable.String()
	}
	start := e.cfg.Start
	r.Start = &start
	r.Time = start
	return r
}

// queueArrival queues the first attempt of the next event, if any. Only one
// future arrival is queued at a time, so the queue holds the events in flight,
// not the whole workload.
func (e *engine) queueArrival() {
	if e.arrived >= e.cfg.Events {
		return
	}
	e.q.push(newDue(e.work.arrival(e.arrived), e.arrived, 1))
	e.arrived++
}

// waitUntil moves the engine's clock to t: a fake clock is advanced, the real
// one is waited for.
func (e *engine) waitUntil(ctx context.Context, t time.Time) error {
	if fc, ok := e.cfg.Clock.(*clockwork.FakeClock); ok {
		if d := t.Sub(fc.Now()); d > 0 {
			fc.Advance(d)
		}
		return nil
	}
	d := t.Sub(e.cfg.Clock.Now())
	if d <= 0 {
		return nil
	}
	select {
	case <-e.cfg.Clock.After(d):
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// waveDepth is how many attempts a wave may hold per unit of concurrency.
// The attempts of a wave are independent, and the workers take them as they
// come free, so a wave deeper than the concurrency keeps every worker busy
// until the wave's last few attempts instead of pausing at every
// concurrency's worth of them.
const waveDepth = 8

// takeWave pops the attempts that can be sent together: those due before t0
// plus the policy's smallest delay (nothing sent in this wave can
// schedule an attempt before that; a Retry-After only lengthens delays), at
// most waveDepth times the concurrency, and none after an attempt that
// could disable the endpoint.
func (e *engine) takeWave(batch []due, t0 int64) []due {
	limit := e.cfg.Concurrency * waveDepth
	if e.cfg.DryRun {
		limit = 1024
	}
	horizon, bounded := t0+int64(e.minDelay), e.minDelay >= 0
	if e.cfg.Realtime {
		// On the real clock an attempt is sent at its own time, not early.
		horizon, bounded = t0, true
	}
	watch := e.dis.watching()
	for e.q.Len() > 0 && len(batch) < limit {
		next := e.q.peek()
		// Exclusive: an attempt this wave schedules can land exactly on the
		// horizon and sort before one already there. The first attempt is
		// always taken, so a zero smallest delay makes waves of one.
		if bounded && len(batch) > 0 && next.at >= horizon {
			break
		}
		if watch && len(batch) > 0 && e.dis.full(len(batch), e.virtual(batch[0].at), e.virtual(batch[len(batch)-1].at)) {
			break
		}
		if len(e.restarts) > 0 && next.at >= e.restarts[0] {
			break // a wave never straddles a restart
		}
		d := e.q.pop()
		if d.n() == 1 {
			e.start(d)
			e.queueArrival()
		}
		batch = append(batch, d)
	}
	return batch
}

// virtual turns an offset from the run's start into a virtual time.
func (e *engine) virtual(at int64) time.Time { return e.cfg.Start.Add(time.Duration(at)) }

// start creates the state of an event at its first attempt. A dry run keeps
// only what the records need.
func (e *engine) start(d due) {
	ev := e.work.event(d.event())
	st := newEventState(ev.ID, ev.Object, d.offset())
	if !e.cfg.DryRun {
		st.req = &requestState{ev: ev} // the body is built when first sent
	}
	e.live.add(d.event(), st)
	e.res.Events++
}

// outcome is what one attempt came to.
type outcome struct {
	unsent        bool // the run was interrupted before the attempt was sent
	tls           TLSProblem
	outcome       Outcome
	status        int
	handlerStatus int
	reached       bool
	latency       time.Duration
	added         time.Duration
	fault         string
	err           string
	header        http.Header
	// dup is the second request of a duplicated attempt, if any.
	dup *outcome
	// attacks are the attack requests sent beside the attempt.
	attacks []attackResult
}

// perform sends a wave's attempts, up to the concurrency at once. Results
// come back in the wave's order whatever order they finish in. Once ctx is
// cancelled, the attempts not yet sent are not sent.
func (e *engine) perform(ctx context.Context, batch []due) []outcome {
	outs := slices.Grow(e.outs[:0], len(batch))[:len(batch)]
	e.outs = outs
	if e.cfg.DryRun || len(batch) == 1 || e.cfg.Concurrency == 1 {
		if e.dec == nil {
			e.dec = e.cfg.Scenario.Decider()
		}
		for i := range batch {
			if ctx.Err() != nil {
				outs[i] = outcome{unsent: true}
				continue
			}
			e.attempt(ctx, &batch[i], e.dec, &outs[i])
		}
		return outs
	}
	if e.pool.jobs == nil {
		e.pool.start(ctx, e, e.cfg.Concurrency)
	}
	e.pool.perform(batch, outs)
	return outs
}

// restart performs the next restart moment: the clock is moved to it (every
// attempt due before it has finished), the Restart hook is called, and a
// restart record is emitted.
func (e *engine) restart(ctx context.Context) error {
	at := e.virtual(e.restarts[0])
	e.restarts = e.restarts[1:]
	if err := e.waitUntil(ctx, at); err != nil {
		return err
	}
	e.res.Restarts++
	r := e.base
	r.Kind, r.N, r.Time = KindRestart, e.res.Restarts, at
	var hookErr error
	if e.cfg.Restart != nil {
		hookErr = e.cfg.Restart(ctx)
		if hookErr != nil {
			r.Error = hookErr.Error()
		}
	}
	if e.client != nil {
		// Kept-alive connections died with the old process; a request
		// written into one would look as if it had reached the handler.
		e.client.CloseIdleConnections()
	}
	if err := e.emit(r); err != nil {
		return err
	}
	if hookErr != nil {
		return fmt.Errorf("restarting the handler at +%s: %w", policies.FormatDuration(at.Sub(e.cfg.Start)), hookErr)
	}
	return nil
}

// faultContext is what the scenario sees of one attempt.
func (e *engine) faultContext(d *due, st *eventState) scenarios.Context {
	c := scenarios.Context{
		Event: d.event(), Attempt: d.n(), At: d.offset(), Since: d.offset() - st.first,
		Next: -1, Timeout: e.timeout,
	}
	if next, ok := e.work.next(d.event()); ok {
		c.Next = next
	}
	return c
}

// attempt decides the faults for one attempt, carries it out, and sends
// the attacks that go beside it, writing what it came to in o. dec is the
// calling goroutine's own.
func (e *engine) attempt(ctx context.Context, d *due, dec *scenarios.Decider, o *outcome) {
	st := e.live.get(d.event())
	act := dec.Decide(e.cfg.Seed, e.faultContext(d, st))
	e.deliver(ctx, d, st, act, o)
	if len(act.Attacks) > 0 && !e.cfg.DryRun {
		o.attacks = e.attacks(ctx, d, st, act.Attacks)
	}
}

// deliver carries out one attempt under the action act, writing what it
// came to in o.
func (e *engine) deliver(ctx context.Context, d *due, st *eventState, act *scenarios.Action, o *outcome) {
	*o = outcome{fault: act.Fault(), added: act.Latency}
	switch {
	case act.BlackHole:
		o.outcome = Timeout
		o.err = e.blackHoleErr
		return
	case act.Drop:
		o.outcome, o.err = ConnectionFailed, "connection refused (injected)"
		return
	case act.Redirect != 0 && act.RedirectHops > e.cfg.Policy.FollowRedirects:
		o.outcome, o.status = Redirect, act.Redirect
		o.err = fmt.Sprintf("%d from the endpoint's old address (injected); %s follows %d redirect(s), %d were needed", act.Redirect, e.cfg.Policy.Name, e.cfg.Policy.FollowRedirects, act.RedirectHops)
		return
	case act.EdgeStatus != 0:
		o.outcome, o.status = HTTPError, act.EdgeStatus
		o.err = fmt.Sprintf("%d from a proxy in front of the handler (injected)", act.EdgeStatus)
		return
	}
	var signedAt time.Time
	if !e.cfg.DryRun {
		// Every attempt signed afresh, later than the one before, even on
		// a wall clock that has not moved since (see SigningTime); one
		// more attempt than the schedule's for a manual redelivery.
		signedAt = policies.SigningTime(e.cfg.WallClock.Now(), d.n(), e.cfg.Policy.MaxAttempts()+1)
		if st.req.body == nil {
			// Built here, on the first attempt, so that bodies are built
			// concurrently rather than one after another between waves.
			st.req.body, st.req.ctype = e.wire.Body(st.req.ev)
		}
	}
	if !act.Duplicate {
		e.send(ctx, d, st, act, signedAt, o)
		return
	}
	*o = e.sendTwice(ctx, d, st, act, signedAt, *o)
}

// sendTwice sends the same request twice, on two connections, released
// together so that both are in the handler at once. (Apart from attempt, so
// that attempt's outcome stays off the heap.)
func (e *engine) sendTwice(ctx context.Context, d *due, st *eventState, act *scenarios.Action, signedAt time.Time, o outcome) outcome {
	dup := o
	var wg sync.WaitGroup
	release := make(chan struct{})
	wg.Go(func() { <-release; e.send(ctx, d, st, act, signedAt, &o) })
	wg.Go(func() { <-release; e.send(ctx, d, st, act, signedAt, &dup) })
	close(release)
	wg.Wait()
	o.dup = &dup
	return o
}

// send performs one request of an attempt and classifies it, applying the
// faults that act on the way back.
func (e *engine) send(ctx context.Context, d *due, st *eventState, act *scenarios.Action, signedAt time.Time, o *outcome) {
	timeout := e.timeout
	var a answer
	if e.cfg.DryRun {
		a = answer{status: http.StatusOK, reached: true}
	} else {
		a = e.exchange(ctx, d, st.req, signedAt)
	}
	o.handlerStatus, o.reached, o.latency, o.header = a.status, a.reached, a.latency, a.stop
	o.err, o.tls = describe(a.err), tlsProblemOf(a.err)
	switch {
	case a.timeout:
		o.outcome = Timeout
	case a.invalid:
		o.outcome = InvalidResponse
	case a.err != nil:
		o.outcome = ConnectionFailed
	default:
		o.outcome, o.status = classify(a.status), a.status
		switch {
		case o.outcome != Redirect || e.cfg.Policy.FollowRedirects == 0:
		case a.redirects >= e.cfg.Policy.FollowRedirects:
			o.err = fmt.Sprintf("still a redirect after %d followed: %s follows at most %d (too many redirects)", a.redirects, e.cfg.Policy.Name, e.cfg.Policy.FollowRedirects)
		default:
			// doFollowing stopped early: the answer named nowhere to go.
			o.err = fmt.Sprintf("a %d answer %s cannot follow (no Location, or not a status a provider follows) after %d redirects followed", a.status, e.cfg.Policy.Name, a.redirects)
		}
	}
	if a.status == 0 {
		return
	}
	switch {
	case act.Reset:
		o.outcome, o.status, o.header = ConnectionFailed, 0, nil
		o.err = "connection reset after the request was sent, before the answer (injected)"
	case act.LoseResponse:
		o.outcome, o.status, o.header = LostResponse, 0, nil
		o.err = "the answer was lost on the way back (injected)"
	case act.Latency > 0 && a.latency+act.Latency > timeout:
		o.outcome, o.status, o.header = Timeout, 0, nil
		o.err = fmt.Sprintf("answered after %s, past the %s timeout (injected latency)", policies.FormatDuration(a.latency+act.Latency), policies.FormatDuration(timeout))
	}
}

// exchange builds one signed request of an attempt and sends it. A request
// that cannot be built is a connection failure.
func (e *engine) exchange(ctx context.Context, d *due, st *requestState, signedAt time.Time) answer {
	// An attempt taken is in flight: it waits for its turn even when the
	// run is interrupted, so this wait cannot fail.
	_ = e.rate.wait(context.WithoutCancel(ctx))
	delivery := policies.Delivery{
		Event: st.ev, N: d.n(), Body: st.body, URL: e.target, Secret: e.cfg.Secret,
		SignedAt: signedAt, RetryReason: st.reason,
	}
	req, err := newRequest(e.sendURL(), &st.ev, st.body, st.ctype, delivery, e.wire, e.virtual(d.at))
	if err != nil {
		return answer{err: err}
	}
	// In-flight attempts finish even when the run is interrupted.
	return exchange(context.WithoutCancel(ctx), e.client, e.cfg.WallClock, req, e.cfg.Policy.FollowRedirects)
}

func (e *engine) sendURL() string {
	if e.cfg.Handler != nil {
		return e.target
	}
	return e.cfg.URL
}

// classify maps a status the provider received to an outcome.
func classify(status int) Outcome {
	switch {
	case status >= 200 && status < 300:
		return Delivered
	case status >= 300 && status < 400:
		return Redirect
	default:
		return HTTPError
	}
}

// slackReason is Slack's X-Slack-Retry-Reason for a failed outcome.
func slackReason(o Outcome) string {
	switch o {
	case Timeout, LostResponse:
		return "http_timeout"
	case HTTPError:
		return "http_error"
	case Redirect:
		return "too_many_redirects"
	case ConnectionFailed:
		return "connection_failed"
	}
	// InvalidResponse: Slack names no reason for an answer that is not
	// HTTP; it has one for what it cannot name.
	return "unknown_error"
}

// judge applies the policy's status semantics to an answer: which statuses
// count as delivered, stop signals, Retry-After and which failures are
// retried. It may change o's outcome and returns what follows.
func (e *engine) judge(o *outcome) verdict {
	p := &e.cfg.Policy
	var v verdict
	if o.status != 0 && o.outcome != LostResponse && o.outcome != Timeout {
		switch ok := p.Succeeded(o.status); {
		case ok && o.outcome != Delivered:
			o.outcome = Delivered
		case !ok && o.outcome == Delivered:
			o.outcome = HTTPError
			o.err = fmt.Sprintf("%d is not a status %s counts as delivered", o.status, p.Name)
		}
	}
	if !o.outcome.Failed() {
		return v
	}
	if o.status != 0 && len(p.Stop) > 0 { // no answer, no stop signal
		if rule, ok := p.StopSignal(o.status, o.header); ok {
			if rule.Disable {
				v.disable = true
				v.signal = "endpoint disabled by the answer " + rule.String()
			} else {
				v.stop = true
				v.signal = "retries stopped by the answer " + rule.String()
			}
			return v
		}
	}
	if !p.Retried(policies.FailureClass(o.status, o.reached)) {
		v.stop = true
		v.noRetry = true
		v.signal = fmt.Sprintf("%s does not retry this failure (%s; retries on: %s)", p.Name, policies.FailureClass(o.status, o.reached), strings.Join(p.RetryOn, ","))
		return v
	}
	if o.header == nil {
		return v // no Retry-After (and no need to read the clock)
	}
	if wait, ok := p.RetryAfterWait(o.status, o.header, e.cfg.WallClock.Now()); ok {
		v.retryAfter = wait
	}
	return v
}

// verdict is what an attempt's answer means for its event and the endpoint.
type verdict struct {
	stop       bool          // no more attempts for this event
	noRetry    bool          // stopped because the policy does not retry this failure
	disable    bool          // the endpoint is disabled at once
	retryAfter time.Duration // the answer's Retry-After, when honoured
	signal     string        // what happened, in words, for the record
}

// apply records an attempt's outcome, decides what happens next to its
// event, and reports whether the endpoint is now disabled.
func (e *engine) apply(d *due, o *outcome) (bool, error) {
	event, n, at := d.event(), d.n(), e.virtual(d.at)
	if at.After(e.lastAt) {
		e.lastAt = at
	}
	st := e.live.get(event)
	st.attempts = int32(n)
	v := e.judge(o)
	delay, more := e.cfg.Policy.Delay(n)
	if more && v.retryAfter > delay {
		delay = v.retryAfter
		v.signal = "next attempt delayed by Retry-After to " + policies.FormatDuration(delay)
	}
	if err := e.recordAttempt(d, st, o, v.signal, 0); err != nil {
		return false, err
	}
	failed := o.outcome.Failed()
	if o.dup != nil {
		// The second of two identical requests: the provider classifies
		// its answer too, and the event is delivered if either was.
		dv := e.judge(o.dup)
		if err := e.recordAttempt(d, st, o.dup, dv.signal, 1); err != nil {
			return false, err
		}
		failed = failed && o.dup.outcome.Failed()
	}
	for i := range o.attacks {
		if err := e.recordAttack(d, at, &o.attacks[i], 0); err != nil {
			return false, err
		}
	}
	disabled := e.dis.record(at, failed)
	switch {
	case v.disable:
		disabled = true
		e.disabledBy = v.signal
	case disabled:
		e.disabledBy = e.cfg.Policy.Disable.String()
	}
	var err error
	switch {
	case st.settled != 0:
		err = e.afterManual(d, st, failed)
	case !failed:
		e.res.Delivered++
		err = e.settle(d, st, FateDelivered)
	case v.stop && v.noRetry:
		e.res.Lost++
		err = e.settle(d, st, FateExhausted)
	case v.stop:
		e.res.Lost++
		err = e.end(event, FateStopped, at)
	case more:
		if st.req != nil {
			st.req.reason = slackReason(o.outcome)
		}
		e.q.push(newDue(d.offset()+delay, event, n+1))
	default:
		e.res.Lost++
		err = e.settle(d, st, FateExhausted)
	}
	if disabled {
		e.res.DisabledAt = at
	}
	return disabled, err
}

// recordAttempt emits the record of one request of an attempt; copyIndex is 1
// for the second request of a duplicated attempt.
func (e *engine) recordAttempt(d *due, st *eventState, o *outcome, signal string, copyIndex int) error {
	r := e.base
	r.Kind = KindAttempt
	r.Event, r.Seq, r.N, r.Time = st.id(), d.event(), d.n(), e.virtual(d.at)
	r.Object, r.Copy, r.Manual = st.object(), copyIndex, st.settled != 0
	r.AtSeconds = (d.offset() - st.first).Seconds()
	r.Outcome, r.Status, r.HandlerStatus, r.Reached = o.outcome, o.status, o.handlerStatus, o.reached
	r.LatencyMS = float64(o.latency.Microseconds()) / 1000
	r.AddedLatencyMS = float64(o.added.Microseconds()) / 1000
	r.Fault, r.Error, r.TLS = o.fault, o.err, o.tls
	r.Signal = signal
	if err := e.emit(r); err != nil {
		return err
	}
	e.res.Attempts++
	if o.reached {
		e.res.Arrivals++
		if o.handlerStatus == 0 {
			e.noteCutOff() // the handler may still be at work on it
		}
	}
	return nil
}

// settle ends an event whose automatic schedule is over with fate, unless
// the scenario has someone resend it by hand within the policy's manual
// redelivery window: then that attempt is queued and the event stays open.
func (e *engine) settle(d *due, st *eventState, fate string) error {
	c := e.faultContext(d, st)
	c.Attempt = d.n() + 1
	after, ok := e.cfg.Scenario.Redelivery(e.cfg.Seed, c)
	manual := e.cfg.Policy.ManualRedelivery.D()
	if !ok || manual <= 0 || d.offset()+after-st.first > manual {
		return e.end(d.event(), fate, e.virtual(d.at))
	}
	st.settled = fateCode(fate)
	e.q.push(newDue(d.offset()+after, d.event(), d.n()+1))
	return nil
}

// afterManual ends an event after its manual redelivery: an event the
// schedule had given up on is delivered after all if the resend was.
func (e *engine) afterManual(d *due, st *eventState, failed bool) error {
	fate := settledFates[st.settled]
	if !failed && fate != FateDelivered {
		e.res.Lost--
		e.res.Delivered++
		fate = FateDelivered
	}
	return e.end(d.event(), fate, e.virtual(d.at))
}

// unsent takes back an attempt of the wave that an interruption kept from
// being sent: its event stays in flight (and ends interrupted), or, if it
// was the event's first attempt, never started.
func (e *engine) unsent(d *due) {
	if d.n() == 1 {
		e.live.remove(d.event())
		e.unstarted = append(e.unstarted, d.event())
		e.res.Events--
	}
}

// end emits an event's fate and forgets it.
func (e *engine) end(event int, fate string, at time.Time) error {
	r := e.base
	r.Kind, r.Fate, r.Seq, r.Time = KindEvent, fate, event, at
	if st := e.live.get(event); st != nil {
		r.Event, r.N = st.id(), int(st.attempts)
		r.AtSeconds = at.Sub(e.cfg.Start.Add(st.first)).Seconds()
		e.live.remove(event)
	} else {
		r.Event = e.work.event(event).ID
	}
	return e.emit(r)
}

// drain ends every event still pending with fate. With all set, events that
// have not started yet end too (the endpoint is gone: they are lost);
// otherwise only the events in flight do.
// endTime is when the run stopped, in virtual time: its last attempt (or the
// disable moment, or its start when nothing was sent). Unlike the clock, it
// does not depend on how attempts were grouped into waves.
func (e *engine) endTime() time.Time {
	t := e.cfg.Start
	if e.lastAt.After(t) {
		t = e.lastAt
	}
	if e.res.DisabledAt.After(t) {
		t = e.res.DisabledAt
	}
	return t
}

func (e *engine) drain(fate string, all bool) error {
	at := e.endTime()
	if fate == FateDisabled {
		at = e.res.DisabledAt
	}
	for _, ev := range e.live.pending() {
		f := fate
		if settled := e.live.get(ev).settled; settled != 0 {
			// Its schedule had ended; only a manual resend was still to come.
			f = settledFates[settled]
		} else if fate == FateDisabled {
			e.res.Lost++
		}
		if err := e.end(ev, f, at); err != nil {
			return err
		}
	}
	e.q.reset()
	if !all {
		return nil
	}
	// The one queued arrival was dropped with the queue; it and every later
	// event never reach the endpoint, nor do those whose first attempt an
	// interruption kept back. Events start in order, so those from the next
	// to start on have not.
	lose := func(ev int) error {
		e.res.Lost++
		return e.end(ev, fate, at)
	}
	for _, ev := range e.unstarted {
		if err := lose(ev); err != nil {
			return err
		}
	}
	e.unstarted = nil
	for ev := e.live.next; ev < e.cfg.Events; ev++ {
		if err := lose(ev); err != nil {
			return err
		}
	}
	e.arrived = e.cfg.Events
	return nil
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
		end.DisabledBy = e.disabledBy
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
