package simulator

import (
	"context"
	"sync"
	"time"

	"github.com/retrysim/retrysim/scenarios"
)

// duplicated: the provider sends the same request twice at the same moment
// (duplicate), on two connections, so that both are in the handler at
// once. The attempt is the first request; the second is its dup.
type duplicated struct{ noEffect }

func (duplicated) send(ctx context.Context, e *engine, d due, st eventRef, act *scenarios.Action, signedAt time.Time, o *outcome) bool {
	if !act.Duplicate || e.subs(d.event(), st) != 0 {
		// A retry of some subscriptions' deliveries (fan-out) goes
		// through each of them once.
		return false
	}
	*o = e.sendTwice(ctx, d, st, act, signedAt, *o)
	return true
}

// sendTwice sends the same request twice, on two connections, released
// together so that both are in the handler at once. (It takes the due and
// the outcome by value, and is called only for a duplicate, so that the
// caller's stay off the heap; the goroutines share this copy of d.)
func (e *engine) sendTwice(ctx context.Context, d due, st eventRef, act *scenarios.Action, signedAt time.Time, o outcome) outcome {
	dup := o
	var wg sync.WaitGroup
	release := make(chan struct{})
	wg.Go(func() { <-release; e.send(ctx, &d, st, act, signedAt, &o) })
	wg.Go(func() { <-release; e.send(ctx, &d, st, act, signedAt, &dup) })
	close(release)
	wg.Wait()
	o.dup = &dup
	return o
}
