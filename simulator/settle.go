package simulator

import (
	"context"
	"maps"
	"time"
)

// A handler the provider cut off goes on working: an in-process handler's
// goroutine runs on after its attempt timed out, and a server goes on after
// its client hung up. If that late work does the side effect after the
// effects oracle was read, the verdict misses a duplicate. So before the
// oracle is read the engine lets the handler settle:
//
//   - in process, it waits for every handler call still running to return,
//     for at most the provider's timeout: a call cut off has already had one
//     timeout, and one more is where a slow handler ends and a hung one
//     begins. Calls still running then are counted in the end record.
//   - against a URL, where nothing shows whether the server is still at
//     work, it reads the oracle again, settleEvery apart, until two reads
//     agree or the provider's timeout has passed since the first. This
//     happens only when an attempt reached the handler and got no answer
//     (the one case where the handler may still be working on it), so an
//     ordinary run reads the oracle once and waits for nothing.
//
// Both waits are real time (the handler's own time, not the run's virtual
// time) on Config.WallClock, and both end at once when ctx is cancelled.

// settleEvery is the real time between two reads of an oracle that is
// settling: a tenth of the provider's timeout, from 10ms to 1s. Small
// against the timeout the cut-off attempt already took, large enough for
// a write in progress to land between two reads.
func settleEvery(timeout time.Duration) time.Duration {
	return min(max(timeout/10, 10*time.Millisecond), time.Second)
}

// effectsQueryTimeout bounds one read of the effects oracle.
const effectsQueryTimeout = 30 * time.Second

// handlerCalls returns the in-process handler calls the engine's client
// tracks, or nil when its target is not an in-process handler (or the
// caller gave a client of its own).
func (e *engine) handlerCalls() *handlerCalls {
	if e.client == nil {
		return nil
	}
	if t, ok := e.client.Transport.(*handlerTransport); ok {
		return &t.calls
	}
	return nil
}

// waitForHandler waits, for at most the provider's timeout, for the
// in-process handler calls still running to return, and reports how many
// still run then.
func (e *engine) waitForHandler(ctx context.Context) int {
	calls := e.handlerCalls()
	if calls == nil || calls.running() == 0 {
		return 0
	}
	t := e.cfg.WallClock.NewTimer(e.timeout)
	defer t.Stop()
	return calls.wait(ctx, t.Chan())
}

// mayStillWork reports whether an answer leaves the handler possibly still
// at work on the request: it reached the handler and no answer came.
func mayStillWork(a *answer) bool { return a.reached && a.status == 0 }

// readEffects reads the effects oracle, until it settles when the handler
// may still be at work on a request it was cut off from. unsettled says
// the answer was still changing, or could not be read again, when reading
// stopped.
func (e *engine) readEffects(ctx context.Context) (m map[string]int, unsettled bool, err error) {
	m, err = e.queryEffects(ctx)
	if err != nil || e.cutOff == 0 || e.handlerCalls() != nil || e.cfg.DryRun {
		return m, false, err
	}
	deadline := e.cfg.WallClock.Now().Add(e.timeout)
	every := settleEvery(e.timeout)
	for {
		left := deadline.Sub(e.cfg.WallClock.Now())
		if left <= 0 {
			return m, true, nil
		}
		t := e.cfg.WallClock.NewTimer(min(every, left))
		select {
		case <-t.Chan():
		case <-ctx.Done():
			t.Stop()
			return m, true, nil
		}
		next, err := e.queryEffects(ctx)
		if err != nil {
			return m, true, nil // the earlier answer stands, unconfirmed
		}
		if maps.Equal(m, next) {
			return next, false, nil
		}
		m = next
	}
}

// queryEffects reads the effects oracle once. An interruption does not
// cancel the read: the effects of the attempts made are worth reporting.
func (e *engine) queryEffects(ctx context.Context) (map[string]int, error) {
	qctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), effectsQueryTimeout)
	defer cancel()
	return e.cfg.Effects(qctx)
}
