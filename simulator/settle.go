package simulator

import (
	"context"
	"fmt"
	"maps"
	"net/http"
	"time"

	"github.com/jonboulle/clockwork"
)

// A handler goes on working after it answered, or after the provider cut
// it off: one that answers 2xx at once and does the work from a queue (the
// design the provider docs recommend, and Slack's Bolt default) writes its
// effects late, and an in-process handler's goroutine, or a server whose
// client hung up, goes on after its attempt timed out. If that late work
// lands after the effects oracle was read, the verdict misses a duplicate.
// So the engine reads the oracle only once the effects have settled:
//
//   - In process it sees the calls: it waits for every one still running to
//     return, for at most one timeout, and counts those still running then
//     in the end record. The oracle is read once after that.
//   - Against a URL nothing shows whether the server is still at work, so
//     the engine reads the oracle again and again (settleRule) until every
//     event the handler accepted is reported and the answer has not changed
//     for a quiet period (Config.SettleQuiet), and, when a request reached
//     the handler and got no answer, one more provider timeout has passed
//     since the last such cut-off (a call cut off has had one already; a
//     second is where a slow handler ends and a hung one begins). It stops
//     at Config.Settle: the effects are unsettled if they were still moving.
//
// Both waits are real time (the handler's own time, not the run's virtual
// time) on Config.WallClock, and both end at once when ctx is cancelled.

// settleEvery is the real time between two reads of an oracle that is
// settling: an eighth of the quiet period, from 10ms to 250ms. Small
// against the quiet period, large enough not to load the handler.
func settleEvery(quiet time.Duration) time.Duration {
	return min(max(quiet/8, 10*time.Millisecond), 250*time.Millisecond)
}

// settleRule says when an oracle's answer has settled.
type settleRule struct {
	clock clockwork.Clock
	// limit is the longest wait; quiet how long the answer must stay the
	// same.
	limit, quiet time.Duration
	// notBefore is the earliest time the answer can count as settled (one
	// timeout after the last cut-off); zero when nothing was cut off.
	notBefore time.Time
	// covered says every event the handler accepted is in the answer; nil
	// asks nothing.
	covered func(map[string]int) bool
}

// settled is what a settled read came to.
type settled struct {
	m map[string]int
	// waited is the real time from the first read to the last.
	waited time.Duration
	// moving says the answer changed within the quiet period (or the
	// cut-off handler had not had its time) when the wait ended: at the
	// limit, on a failed read, or when ctx was cancelled.
	moving bool
}

// read reads query until the rule is met, for at most the rule's limit.
// Only the first read's error is returned: a later failure ends the wait
// with the last answer, unconfirmed.
func (s settleRule) read(ctx context.Context, query func(context.Context) (map[string]int, error)) (settled, error) {
	start := s.clock.Now()
	deadline := start.Add(s.limit)
	m, err := query(ctx)
	if err != nil {
		return settled{}, err
	}
	changed := start
	every := settleEvery(s.quiet)
	for {
		now := s.clock.Now()
		quiet := now.Sub(changed) >= s.quiet && !now.Before(s.notBefore)
		if quiet && (s.covered == nil || s.covered(m)) {
			return settled{m: m, waited: now.Sub(start)}, nil
		}
		if !now.Before(deadline) {
			return settled{m: m, waited: now.Sub(start), moving: !quiet}, nil
		}
		if !sleepUntil(ctx, s.clock, minTime(now.Add(every), deadline)) {
			return settled{m: m, waited: s.clock.Now().Sub(start), moving: true}, nil
		}
		next, err := query(ctx)
		if err != nil {
			return settled{m: m, waited: s.clock.Now().Sub(start), moving: true}, nil
		}
		if !maps.Equal(m, next) {
			m, changed = next, s.clock.Now()
		}
	}
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

// settleWithDefaults gives the wait for the effects to settle its
// defaults where they are 0 (DefaultSettle; DefaultSettleQuiet, or half the
// wait when that is shorter) and checks it: above 0 and at most MaxSettle
// (CheckSettle), with a quiet period up to it. Run and replay alike.
func settleWithDefaults(settle, quiet *time.Duration) error {
	if *settle == 0 {
		*settle = DefaultSettle
	}
	if *quiet == 0 {
		*quiet = min(DefaultSettleQuiet, *settle/2)
	}
	if err := CheckSettle(*settle); err != nil {
		return err
	}
	if *quiet < 0 || *quiet > *settle {
		return fmt.Errorf("settle's quiet period must be 0 up to settle (%s), got %s", *settle, *quiet)
	}
	return nil
}
