package simulator

import (
	"context"
	"sync"
	"time"

	"github.com/retrysim/retrysim/scenarios"
)

// fannedOut: the provider sends the attempt through each of the endpoint's
// subscriptions to the event at once (fan-out), each request with its own
// subscription's ids (policies.Delivery.Subscription). The attempt is
// subscription 0's request; the others are its fan.
type fannedOut struct{ noEffect }

func (fannedOut) send(ctx context.Context, e *engine, d due, st *eventState, act *scenarios.Action, signedAt time.Time, o *outcome) bool {
	if act.FanOut < 2 {
		return false
	}
	e.sendFanned(ctx, d, st, act, signedAt, o)
	return true
}

// sendFanned sends one request per subscription, released together, and
// keeps the others' outcomes in o.fan.
func (e *engine) sendFanned(ctx context.Context, d due, st *eventState, act *scenarios.Action, signedAt time.Time, o *outcome) {
	fan := make([]outcome, act.FanOut-1)
	for i := range fan {
		fan[i] = *o
		fan[i].sub = i + 1
	}
	var wg sync.WaitGroup
	release := make(chan struct{})
	wg.Go(func() { <-release; e.send(ctx, &d, st, act, signedAt, o) })
	for i := range fan {
		wg.Go(func() { <-release; e.send(ctx, &d, st, act, signedAt, &fan[i]) })
	}
	close(release)
	wg.Wait()
	o.fan = fan
}
