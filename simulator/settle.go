package simulator

import (
	"context"
	"maps"
	"net/http"
	"time"

	"github.com/jonboulle/clockwork"
)

// A handler the provider cut off goes on working: an in-process handler's
// goroutine runs on after its attempt timed out, and a server goes on after
// its client hung up. If that late work does the side effect after the
// effects oracle was read, the verdict misses a duplicate. So before the
// oracle is read the engine gives such a handler one more provider timeout:
// a call cut off has had one already, and a second is where a slow handler
// ends and a hung one begins.
//
//   - In process it sees the calls: it waits for every one still running to
//     return, for at most one timeout, and counts those still running then
//     in the end record.
//   - Against a URL nothing shows whether the server is still at work, and
//     two reads of the oracle that agree prove only that nothing landed
//     between them. So when a request reached the handler and got no
//     answer, the engine waits until one timeout has passed since the last
//     such cut-off, then reads the oracle until two reads settleEvery apart
//     agree, for at most one more timeout (the effects are unsettled
//     otherwise). A run where nothing was cut off reads the oracle once and
//     waits for nothing.
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

// callsOf returns the in-process handler calls a client tracks, or nil
// when its target is not an in-process handler (or the caller gave a client
// of its own).
func callsOf(c *http.Client) *handlerCalls {
	if c == nil {
		return nil
	}
	if t, ok := c.Transport.(*handlerTransport); ok {
		return &t.calls
	}
	return nil
}

// waitForCalls waits, for at most timeout on clock, for the in-process
// handler calls still running to return, and reports how many still run
// then.
func waitForCalls(ctx context.Context, calls *handlerCalls, clock clockwork.Clock, timeout time.Duration) int {
	if calls == nil || calls.running() == 0 {
		return 0
	}
	t := clock.NewTimer(timeout)
	defer t.Stop()
	return calls.wait(ctx, t.Chan())
}

func (e *engine) handlerCalls() *handlerCalls { return callsOf(e.client) }

// waitForHandler waits, for at most the provider's timeout, for the
// in-process handler calls still running to return, and reports how many
// still run then.
func (e *engine) waitForHandler(ctx context.Context) int {
	return waitForCalls(ctx, e.handlerCalls(), e.cfg.WallClock, e.timeout)
}

// noteCutOff records a request that reached the handler and got no answer:
// the handler may still be at work on it.
func (e *engine) noteCutOff() {
	e.lastCutOff = e.cfg.WallClock.Now()
}

// readEffects reads the effects oracle, once the handler has settled when
// it may still be at work on a request it was cut off from. unsettled says
// the answer may still miss that work: it was still changing, could not be
// read again, or ctx was cancelled before the handler had had its time.
func (e *engine) readEffects(ctx context.Context) (m map[string]int, unsettled bool, err error) {
	if e.lastCutOff.IsZero() || e.handlerCalls() != nil || e.cfg.DryRun {
		m, err = e.queryEffects(ctx)
		return m, false, err
	}
	return settledRead(ctx, e.cfg.WallClock, e.timeout, e.lastCutOff, e.queryEffects)
}

// settledRead reads an oracle (query) once a handler cut off at lastCutOff
// has had one more timeout, then until two reads settleEvery apart agree,
// for at most one more timeout; unsettled says they never agreed, a later
// read failed, or ctx was cancelled first.
func settledRead(ctx context.Context, clock clockwork.Clock, timeout time.Duration, lastCutOff time.Time,
	query func(context.Context) (map[string]int, error)) (m map[string]int, unsettled bool, err error) {
	if !sleepUntil(ctx, clock, lastCutOff.Add(timeout)) {
		m, err = query(ctx)
		return m, true, err
	}
	m, err = query(ctx)
	if err != nil {
		return nil, false, err
	}
	deadline := clock.Now().Add(timeout)
	every := settleEvery(timeout)
	for {
		now := clock.Now()
		if !now.Before(deadline) || !sleepUntil(ctx, clock, minTime(now.Add(every), deadline)) {
			return m, true, nil
		}
		next, err := query(ctx)
		if err != nil {
			return m, true, nil // the earlier answer stands, unconfirmed
		}
		if maps.Equal(m, next) {
			return next, false, nil
		}
		m = next
	}
}

// sleepUntil waits on clock until t, and reports false if ctx was
// cancelled first.
func sleepUntil(ctx context.Context, clock clockwork.Clock, t time.Time) bool {
	d := t.Sub(clock.Now())
	if d <= 0 {
		return ctx.Err() == nil
	}
	timer := clock.NewTimer(d)
	defer timer.Stop()
	select {
	case <-timer.Chan():
		return true
	case <-ctx.Done():
		return false
	}
}

func minTime(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}

// queryEffects reads the effects oracle once.
func (e *engine) queryEffects(ctx context.Context) (map[string]int, error) {
	return queryOracle(ctx, e.cfg.Effects)
}

// queryOracle reads an effects oracle once, within effectsQueryTimeout. An
// interruption does not cancel the read: the effects of the attempts made
// are worth reporting.
func queryOracle(ctx context.Context, effects EffectsFunc) (map[string]int, error) {
	qctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), effectsQueryTimeout)
	defer cancel()
	return effects(qctx)
}
