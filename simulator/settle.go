package simulator

import (
	"context"
	"fmt"
	"maps"
	"net/http"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/retrysim/retrysim/simulator/oracle"
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
//     at Config.SettleLimit: the effects are unsettled if they were still moving.
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
	// same, at least (the window grows with the gaps seen: quietWindow).
	limit, quiet time.Duration
	// fixed keeps the quiet window at quiet, whatever the gaps.
	fixed bool
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
	// moving says the answer changed within the quiet period, the oracle
	// still reported work pending (or the cut-off handler had not had its
	// time) when the wait ended: at the limit, on a failed read, or when
	// ctx was cancelled.
	moving bool
	// pending is the work the oracle reported still queued at the last
	// read; hasPending says it reports that at all.
	pending    int
	hasPending bool
	// onQuiet is the quiet window the answer settled on when it settled on
	// quiet alone (no pending count) although the handler was seen working
	// after it answered (late); 0 otherwise.
	onQuiet time.Duration
	// late says the handler's effects moved after the last attempt: the
	// answer changed while settling, or did not yet report every event
	// the handler accepted at the first read.
	late bool
}

// quietWindow is how long an answer must stay the same to count as
// settled: at least the rule's quiet, and at least twice the longest gap
// seen between two changes (the end of the run counting as the first), so
// a worker that takes 3s a job is not taken for done after 2s.
func (s settleRule) quietWindow(longestGap time.Duration) time.Duration {
	if s.fixed {
		return s.quiet
	}
	return max(s.quiet, 2*longestGap)
}

// read reads query until the rule is met, for at most the rule's limit.
// While the oracle reports pending work the answer is not settled, however
// quiet; once it reports none (and every accepted event), it is, at once.
// Only the first read's error is returned: a later failure ends the wait
// with the last answer, unconfirmed. Every read is bounded by what is left
// of the limit.
func (s settleRule) read(ctx context.Context, query func(context.Context) (oracle.Reading, error)) (settled, error) {
	start := s.clock.Now()
	deadline := start.Add(s.limit)
	r, err := readWithin(ctx, query, s.limit)
	if err != nil {
		return settled{}, err
	}
	m := r.Effects
	changed, gap := start, time.Duration(0)
	late := s.covered != nil && !s.covered(m)
	every := settleEvery(s.quiet)
	done := func(now time.Time, moving bool) settled {
		out := settled{m: m, waited: now.Sub(start), moving: moving, pending: r.Pending, hasPending: r.HasPending, late: late}
		if !moving && !r.HasPending && late {
			out.onQuiet = s.quietWindow(gap)
		}
		return out
	}
	for {
		now := s.clock.Now()
		ready := !now.Before(s.notBefore) && (s.covered == nil || s.covered(m))
		var quiet bool
		if r.HasPending {
			quiet = r.Pending == 0
		} else {
			quiet = now.Sub(changed) >= s.quietWindow(gap)
		}
		if quiet && ready {
			return done(now, false), nil
		}
		if !now.Before(deadline) {
			return done(now, !quiet), nil
		}
		if !sleepUntil(ctx, s.clock, minTime(now.Add(every), deadline)) {
			return done(s.clock.Now(), true), nil
		}
		next, err := readWithin(ctx, query, deadline.Sub(s.clock.Now()))
		if err != nil {
			return done(s.clock.Now(), true), nil
		}
		r.Pending, r.HasPending = next.Pending, next.HasPending
		if !maps.Equal(m, next.Effects) {
			now := s.clock.Now()
			gap = max(gap, now.Sub(changed))
			m, changed, late = next.Effects, now, true
		}
	}
}

// readWithin reads the oracle once, for at most left of real time (at
// least oracleReadFloor, so a read at the limit is not cut before it
// starts). An
// interruption does not cancel the read: the effects of the attempts made
// are worth reporting.
func readWithin(ctx context.Context, query func(context.Context) (oracle.Reading, error), left time.Duration) (oracle.Reading, error) {
	qctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), max(left, oracleReadFloor))
	defer cancel()
	return query(qctx)
}

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

// queryEffects reads the effects oracle once, within the settle limit.
func (e *engine) queryEffects(ctx context.Context) (oracle.Reading, error) {
	return readWithin(ctx, e.oracle.Read, e.cfg.SettleLimit)
}

// queryOracle reads a flat effects oracle once, within limit.
func queryOracle(ctx context.Context, effects EffectsFunc, limit time.Duration) (map[string]int, error) {
	r, err := readWithin(ctx, effects.Read, limit)
	return r.Effects, err
}

// resolveSettle gives the wait for the effects to settle its
// defaults where they are 0 (DefaultSettle; DefaultSettleQuiet, or half the
// wait when that is shorter) and checks it: above 0 and at most MaxSettle
// (CheckSettle), with a quiet period up to it. Run and replay alike.
func resolveSettle(settle, quiet *time.Duration) error {
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
