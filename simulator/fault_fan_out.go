package simulator

import (
	"context"
	"math/bits"
	"sync"
	"time"

	"github.com/retrysim/retrysim/scenarios"
)

// fannedOut: the provider sends the attempt through each of the endpoint's
// subscriptions to the event at once (fan-out), each request with its own
// subscription's ids (policies.Delivery.Subscription). Each subscription's
// delivery is retried on its own (decideFanned): a retry goes through the
// subscriptions whose deliveries failed, not through those that succeeded.
// The attempt is the first such subscription's request; the others are its
// fan.
type fannedOut struct{ noEffect }

func (fannedOut) send(ctx context.Context, e *engine, d due, st eventRef, act *scenarios.Action, signedAt time.Time, o *outcome) bool {
	if act.FanOut < 2 && e.subs(d.event(), st) == 0 {
		return false
	}
	e.sendFanned(ctx, d, st, act, signedAt, o)
	return true
}

// sendFanned sends one request per subscription still to be delivered
// (every one of them on the event's first fanned-out attempt), released
// together, and keeps the others' outcomes in o.fan.
func (e *engine) sendFanned(ctx context.Context, d due, st eventRef, act *scenarios.Action, signedAt time.Time, o *outcome) {
	subs := e.subs(d.event(), st)
	if subs == 0 {
		subs = uint16(1<<act.FanOut - 1)
	}
	o.sub = bits.TrailingZeros16(subs)
	subs &^= 1 << o.sub
	fan := make([]outcome, bits.OnesCount16(subs))
	for i := range fan {
		fan[i] = *o
		fan[i].sub = bits.TrailingZeros16(subs)
		subs &^= 1 << fan[i].sub
	}
	var wg sync.WaitGroup
	release := make(chan struct{})
	wg.Go(func() { <-release; e.send(ctx, &d, st, act, signedAt, o) })
	for i := range fan {
		wg.Go(func() { <-release; e.send(ctx, &d, st, act, signedAt, &fan[i]) })
	}
	close(release)
	wg.Wait()
	if len(fan) > 0 {
		o.fan = fan
	}
}
