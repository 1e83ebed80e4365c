package simulator

import (
	"context"
	"fmt"
	"net/http"
	"sync"
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
	// dup is the second request of a duplicated attempt, if any.
	dup *outcome
	// attacks are the attack requests sent beside the attempt.
	attacks []attackResult
}

// faultContext is what the scenario sees of one attempt.
func (e *engine) faultContext(d *due, st *eventState) scenarios.Context {
	return scenarios.Context{
		Event: d.event(), Attempt: d.n(), At: d.offset(), Since: d.offset() - st.first,
		Next: st.next, Timeout: e.timeout,
	}
}

// attempt decides the faults for one attempt, carries it out, and sends
// the attacks that go beside it, writing what it came to in o. dec is the
// calling goroutine's own; wrote, if not nil, is called whenever one of
// the attempt's own requests (not the attacks) has been written.
func (e *engine) attempt(ctx context.Context, d *due, st *eventState, dec *scenarios.Decider, o *outcome, wrote func()) {
	act := dec.Decide(e.cfg.Seed, e.faultContext(d, st))
	if wrote != nil {
		e.deliver(withWrote(ctx, wrote), d, st, act, o)
	} else {
		e.deliver(ctx, d, st, act, o)
	}
	if len(act.Attacks) > 0 && !e.cfg.DryRun {
		o.attacks = e.attacks(ctx, d, st, act.Attacks)
	}
}

// deliver carries out one attempt under the action act, writing what it
// came to in o.
func (e *engine) deliver(ctx context.Context, d *due, st *eventState, act *scenarios.Action, o *outcome) {
	*o = outcome{fault: act.Fault(), outage: act.Outage, added: act.Latency}
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
			// on the workers, concurrently, rather than on the scheduler.
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
// that attempt's outcome stays off the heap; the goroutines share a copy of
// d, so that the caller's d stays off it too.)
func (e *engine) sendTwice(ctx context.Context, d *due, st *eventState, act *scenarios.Action, signedAt time.Time, o outcome) outcome {
	dup, dd := o, *d
	var wg sync.WaitGroup
	release := make(chan struct{})
	wg.Go(func() { <-release; e.send(ctx, &dd, st, act, signedAt, &o) })
	wg.Go(func() { <-release; e.send(ctx, &dd, st, act, signedAt, &dup) })
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
		// Only the injected latency, which the seed decides, is named:
		// the measured time is the record's latency_ms, and an error that
		// carried it would differ between two runs of one seed.
		o.err = fmt.Sprintf("the injected latency of %s took the answer past the %s timeout", policies.FormatDuration(act.Latency), policies.FormatDuration(timeout))
	}
}

// exchange builds one signed request of an attempt and sends it. A request
// that cannot be built is a connection failure.
func (e *engine) exchange(ctx context.Context, d *due, st *requestState, signedAt time.Time) answer {
	// An attempt taken is in flight: it waits for its turn even when the
	// run is interrupted, so this wait cannot fail.
	ctx = detached{ctx}
	_ = e.rate.wait(ctx)
	delivery := policies.Delivery{
		Event: st.ev, N: d.n(), Body: st.body, URL: e.target, Secret: e.cfg.Secret,
		SignedAt: signedAt, RetryReason: st.reason,
	}
	req, err := newRequest(e.sendURL(), &st.ev, st.body, st.ctype, delivery, e.wire, e.virtual(d.at))
	if err != nil {
		return answer{err: err}
	}
	if st.in != nil {
		resend(req, st.in, e.wire.Name())
	}
	// In-flight attempts finish even when the run is interrupted.
	return exchange(ctx, e.client, e.cfg.WallClock, req, e.cfg.Policy.FollowRedirects)
}

func (e *engine) sendURL() string {
	if e.cfg.Handler != nil {
		return e.target
	}
	return e.cfg.URL
}
