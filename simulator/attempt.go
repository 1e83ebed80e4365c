package simulator

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/retrysim/retrysim/policies"
	"github.com/retrysim/retrysim/scenarios"
)

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
	outage        bool // an injected outage applied
	err           string
	header        http.Header
	// redirectRefused is where the handler's redirect led when retrysim
	// refused to connect there (see Record.RedirectRefused);
	// redirectUnreached where it led, followed, when no connection could
	// be made there (see Record.RedirectUnreached).
	redirectRefused, redirectUnreached string
	// dup is the second request of a duplicated attempt, if any.
	dup *outcome
	// held is how long the provider held the attempt back instead of
	// sending it; providerDropped says it never sends it (provider side).
	held            time.Duration
	providerDropped bool
	// paused says nothing was sent because the endpoint was disabled for
	// a while (a disable rule's backoff).
	paused bool
	// sub is the subscription that sent the request (fan-out), from 0;
	// fan are the other subscriptions' requests of a fanned-out attempt.
	sub int
	fan []outcome
	// attacks are the attack requests sent beside the attempt.
	attacks []attackResult
}

// faultContext fills c with what the scenario sees of one attempt; Next
// only when the scenario reads it (-1 otherwise).
func (e *engine) faultContext(c *scenarios.Context, d *due, st eventRef) {
	next := time.Duration(-1)
	if e.readsNext {
		next = e.work.nextOrNone(d.event())
	}
	// Cleared, then set a field at a time: a Context literal is built on
	// the stack and copied in with wide loads of what was just stored
	// narrow, which stalls the processor on every attempt (a tenth of
	// deciding, as the Decider's Context says).
	*c = scenarios.Context{}
	c.Event, c.Attempt, c.At = d.event(), d.n(), d.offset()
	c.Since = d.offset() - e.first(d.event(), st)
	c.Next, c.Timeout, c.Held = next, e.timeout, st.held()
}

// attempt decides the faults for one attempt, carries it out, and sends
// what goes beside it, writing what it came to in o. dec is the calling
// goroutine's own; watched, if not nil, is ctx carrying a writeWatcher
// (see withWrote) told whenever one of the attempt's own requests (not
// the attacks) has been written.
func (e *engine) attempt(ctx context.Context, d *due, st eventRef, dec *scenarios.Decider, o *outcome, watched context.Context) {
	if st.paused() {
		*o = outcome{paused: true}
		return
	}
	e.faultContext(dec.Context(), d, st)
	act := dec.DecideContext(e.cfg.Seed)
	if watched != nil {
		e.deliver(watched, d, st, act, o)
	} else {
		e.deliver(ctx, d, st, act, o)
	}
	e.besideAttempt(ctx, *d, st, act, o)
}

// deliver carries out one attempt under the action act, writing what it
// came to in o. The faults take effect at the points of fault.go.
func (e *engine) deliver(ctx context.Context, d *due, st eventRef, act *scenarios.Action, o *outcome) {
	*o = outcome{fault: act.Fault(), outage: act.Outage, added: act.Latency}
	if e.beforeSend(act, o) {
		return
	}
	var signedAt time.Time
	if !e.cfg.DryRun {
		// Every attempt signed afresh, later than the one before, even on
		// a wall clock that has not moved since (see SigningTime); one
		// more attempt than the schedule's for a manual redelivery.
		signedAt = policies.SigningTime(e.cfg.WallClock.Now(), d.n(), e.cfg.Policy.MaxAttempts()+1)
		if req := st.req(); req.body == nil {
			// Built here, on the first attempt, so that bodies are built
			// on the workers, concurrently, rather than on the scheduler.
			req.body, req.ctype = e.body(req.ev)
		}
	}
	if e.sendRequest(ctx, *d, st, act, signedAt, o) {
		return
	}
	e.send(ctx, d, st, act, signedAt, o)
}

// send performs one request of an attempt and classifies it, applying the
// faults that act on the way back.
func (e *engine) send(ctx context.Context, d *due, st eventRef, act *scenarios.Action, signedAt time.Time, o *outcome) {
	var a answer
	if e.cfg.DryRun {
		a = answer{status: http.StatusOK, reached: true}
	} else {
		a = e.exchange(ctx, d, st.req(), signedAt, o.sub)
	}
	received(o, &a, &e.cfg.Policy)
	if a.status == 0 {
		return
	}
	e.onAnswer(act, a.latency, o)
}

// received writes in o what the answer a to one request came to, as
// policy p's provider sees it before its status semantics (judge) and
// before any fault on the way back: a run's attempts and a replay's sends
// alike.
func received(o *outcome, a *answer, p *policies.Policy) {
	o.handlerStatus, o.reached, o.latency, o.header = a.status, a.reached, a.latency, a.stop
	o.err, o.tls, o.redirectRefused, o.redirectUnreached = describe(a.err), tlsProblemOf(a.err), a.redirectRefused, ""
	switch {
	case a.timeout:
		o.outcome = Timeout
	case a.invalid:
		o.outcome = InvalidResponse
	case a.redirectRefused != "":
		// The handler answered: a redirect the provider would follow, to
		// where retrysim does not connect. The attempt ends on it.
		o.outcome, o.status = Redirect, a.status
		o.err = fmt.Sprintf("a %d to %s, not followed: %s", a.status, a.redirectRefused, o.err)
	case a.err != nil:
		o.outcome = ConnectionFailed
		if a.redirectUnreached != "" {
			// The handler answered with a redirect the provider
			// followed, and no connection could be made where it led:
			// the request never reached that address.
			o.redirectUnreached = a.redirectUnreached
			o.err = fmt.Sprintf("the redirect to %s, followed: %s", a.redirectUnreached, o.err)
		}
	default:
		o.outcome, o.status = classify(a.status), a.status
		switch {
		case o.outcome != Redirect || p.FollowRedirects == 0:
		case a.redirects >= p.FollowRedirects:
			o.err = fmt.Sprintf("still a redirect after %d followed: %s follows at most %d (too many redirects)", a.redirects, p.Name, p.FollowRedirects)
		default:
			// doFollowing stopped early: the answer named nowhere to go.
			o.err = fmt.Sprintf("a %d answer %s cannot follow (no Location, or not a status a provider follows) after %d %s followed", a.status, p.Name, a.redirects, policies.Plural(a.redirects, "redirect", "redirects"))
		}
	}
}

// exchange builds one signed request of an attempt and sends it. A request
// that cannot be built is a connection failure.
func (e *engine) exchange(ctx context.Context, d *due, st *requestState, signedAt time.Time, sub int) answer {
	// An attempt taken is in flight: it waits for its turn even when the
	// run is interrupted, so this wait cannot fail.
	if e.rate != nil {
		_ = e.rate.wait(detached{ctx})
	}
	delivery := policies.Delivery{
		Event: st.ev, N: d.n(), Body: st.body, URL: e.target, Secret: e.cfg.Secret,
		SignedAt: signedAt, RetryReason: st.reason, Subscription: sub,
	}
	// In-flight attempts finish even when the run is interrupted: the
	// request is made without the run's cancellation (detached), and
	// bounded by the provider's timeout when redirects are followed.
	follow := e.cfg.Policy.FollowRedirects
	var t *tracer
	if follow == 0 || e.client.Timeout == 0 {
		if f, ok := ctx.Value(wroteKey{}).(*flight); ok && f.watched == ctx {
			if t = f.tracer(e.cfg.WallClock); t != nil {
				ctx = t
			}
		}
	}
	if t == nil {
		var cancel context.CancelFunc
		ctx, cancel = exchangeContext(detached{ctx}, e.client, follow)
		defer cancel()
		t, ctx = newTracer(ctx, e.cfg.WallClock)
	}
	req, err := newRequest(ctx, e.sendURL(), &st.ev, st.body, st.ctype, delivery, e.wire, e.virtual(d.at))
	if err != nil {
		return answer{err: err}
	}
	if st.in != nil {
		resend(req, st.in, e.wire)
	}
	e.addHeaders(req.Header)
	// A flight's tracer bounds the exchange by the provider's timeout
	// itself, and the request goes straight to the engine's own
	// transport: http.Client would give every request a context and a
	// timer of its own for the timeout, and follows no redirect here.
	var rt http.RoundTripper
	if t.owner != nil && follow == 0 && e.cfg.Client == nil {
		rt = e.client.Transport
		t.bound(e.client.Timeout)
	}
	a := t.exchange(e.client, rt, req, follow)
	t.release(a.err)
	return a
}

func (e *engine) sendURL() string {
	if e.cfg.Handler != nil {
		return e.target
	}
	return e.cfg.URL
}
