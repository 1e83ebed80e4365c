package simulator

import (
	"context"
	"time"

	"github.com/retrysim/retrysim/scenarios"
)

// Where a fault takes effect. A scenario decides, for each attempt, which
// faults apply (a scenarios.Action); what each of them does to the attempt
// is a small type in a file of its own beside this one (fault_*.go), which
// the engine asks at fixed points of every attempt. The order in which it
// asks them at each point is the list below: at a point where one effect
// settles the attempt, the first that does wins.
//
// A restart acts at moments of virtual time rather than on attempts:
// couplings.go performs it, with Config.Restart.
//
// A new kind of fault is a scenarios.Kind that sets what it decided on the
// attempt's scenarios.Effect; when it does something no effect here does
// yet, a field of Effect for it and here one faultEffect type in its own
// file, with its test, placed in the lists below at the points where it
// acts.

// faultEffect is what one kind of injected fault does to an attempt. Each
// method is one point of an attempt; embed noEffect for the points where
// an effect does nothing. The attempt's due is passed by value: an effect
// that needs its address takes it only in a function it calls when it
// acts, so that the caller's stays off the heap.
type faultEffect interface {
	// before is asked before the request is built. Reporting true, it has
	// settled the attempt itself in o: the request is not sent (the
	// handler is not reached), and no later effect is asked.
	before(e *engine, act *scenarios.Action, o *outcome) bool
	// send is asked how to send the request. Reporting true, it has sent
	// it and written o; false leaves it to the engine's one request.
	send(ctx context.Context, e *engine, d due, st eventRef, act *scenarios.Action, signedAt time.Time, o *outcome) bool
	// answered is asked once the handler's answer came, after latency.
	// Reporting true, it has changed what the provider sees in o, and no
	// later effect is asked.
	answered(e *engine, act *scenarios.Action, latency time.Duration, o *outcome) bool
	// beside is asked after the attempt, for requests sent beside it.
	beside(ctx context.Context, e *engine, d due, st eventRef, act *scenarios.Action, o *outcome)
}

// Every effect, each asked at the points below.
var _ = [...]faultEffect{
	droppedByProvider{}, heldBack{}, swallowed{}, refused{}, unfollowedRedirect{}, edgeAnswer{},
	duplicated{}, fannedOut{}, resetAfterSend{}, lostAnswer{}, lateAnswer{}, attacksBeside{},
}

// The points of an attempt, each listing its effects in the order the
// engine asks them; the first that acts wins. (Each list is written as
// calls on the effects' own zero-sized types rather than a loop over
// interface values: a model run asks them for every attempt, and direct
// calls cost nothing where an effect does not act.)

// beforeSend: the request never reaches the handler.
func (e *engine) beforeSend(act *scenarios.Action, o *outcome) bool {
	return droppedByProvider{}.before(e, act, o) ||
		heldBack{}.before(e, act, o) ||
		swallowed{}.before(e, act, o) ||
		refused{}.before(e, act, o) ||
		unfollowedRedirect{}.before(e, act, o) ||
		edgeAnswer{}.before(e, act, o)
}

// sendRequest: how the request goes out.
func (e *engine) sendRequest(ctx context.Context, d due, st eventRef, act *scenarios.Action, signedAt time.Time, o *outcome) bool {
	return duplicated{}.send(ctx, e, d, st, act, signedAt, o) ||
		fannedOut{}.send(ctx, e, d, st, act, signedAt, o)
}

// onAnswer: the handler answered; the answer changes on the way back.
func (e *engine) onAnswer(act *scenarios.Action, latency time.Duration, o *outcome) bool {
	return resetAfterSend{}.answered(e, act, latency, o) ||
		lostAnswer{}.answered(e, act, latency, o) ||
		lateAnswer{}.answered(e, act, latency, o)
}

// besideAttempt: requests sent beside the attempt.
func (e *engine) besideAttempt(ctx context.Context, d due, st eventRef, act *scenarios.Action, o *outcome) {
	attacksBeside{}.beside(ctx, e, d, st, act, o)
}

// unanswered turns an attempt whose handler answered into one whose answer
// never reached the provider, which sees outcome out for the reason err:
// what the effects on the way back do. A redirect that never reached the
// provider was not one it would follow, so none was refused or followed
// either.
func (o *outcome) unanswered(out Outcome, err string) {
	o.outcome, o.status, o.header, o.err, o.redirectRefused, o.redirectUnreached = out, 0, nil, err, "", ""
}

// noEffect does nothing at any point; effects embed it for the points at
// which they do not act.
type noEffect struct{}

func (noEffect) before(*engine, *scenarios.Action, *outcome) bool { return false }

func (noEffect) send(context.Context, *engine, due, eventRef, *scenarios.Action, time.Time, *outcome) bool {
	return false
}

func (noEffect) answered(*engine, *scenarios.Action, time.Duration, *outcome) bool { return false }

func (noEffect) beside(context.Context, *engine, due, eventRef, *scenarios.Action, *outcome) {}
