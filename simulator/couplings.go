package simulator

import (
	"context"

	"github.com/retrysim/retrysim/policies"
)

// The couplings between events: the only reasons an attempt that is due,
// with a slot free, is not sent at once. Each is named here and honoured
// exactly; the scheduler invents no other.
//
//   - The endpoint-disable rule (disableSafe): an attempt goes out only when
//     nothing still uncommitted before it in virtual time could disable the
//     endpoint first, even if every one of those attempts failed. The rule
//     says how far ahead that is safe (disabler.full).
//   - Restarts (restartDue): a barrier. No attempt at or after a restart
//     moment is sent until every attempt before it has been committed.
//   - Events about the same object (objectBlocked): their first arrivals
//     are written to the handler in virtual-time order, so reordering is
//     what the scenario injects and a handler's stale-event check sees what
//     the report says. Written is all a client can see of a request that
//     gets no answer: a handler whose goroutines take two such requests up
//     in the other order can still swap them (a serial run cannot).
//   - The rate cap (rateLimiter): requests are spaced on the wall clock.
//
// Within an event, attempt n+1 exists only once attempt n's answer has been
// decided, so that chain needs no rule of its own.

// restartDue reports whether the next restart comes at or before an
// attempt at at: the attempt waits for it.
func (e *engine) restartDue(at int64) bool {
	return len(e.restarts) > 0 && e.restarts[0] <= at
}

// disableSafe reports whether attempt d may be sent: the attempts before it
// still uncommitted (those sent, and the held-back ones in earlier, which
// come before d) and every attempt they could cause before d cannot
// disable the endpoint whatever they answer.
func (e *engine) disableSafe(d *due, earlier []due) bool {
	dis := e.disablerOf(d.event())
	if !dis.watching() {
		return true
	}
	// Only the attempts of d's own tenant count towards its rule.
	k, first := 0, d.at
	for _, f := range e.sch.sent.items {
		if f.d.before(d) && e.sameTenant(f.d.event(), d.event()) {
			k += e.reach(f.d.at, f.d.n(), d.at)
			first = min(first, f.d.at)
		}
	}
	for i := range earlier {
		if !e.sameTenant(earlier[i].event(), d.event()) {
			continue
		}
		k += e.reach(earlier[i].at, earlier[i].n(), d.at)
		first = min(first, earlier[i].at)
	}
	return k == 0 || !dis.full(k, e.virtual(first), e.virtual(d.at))
}

// reach counts the attempts an event could still make up to until, from
// its attempt n at at: that one, and each next one at its earliest.
func (e *engine) reach(at int64, n int, until int64) int {
	k := 1
	for {
		gap := e.gapAfter(n)
		if gap < 0 {
			return k
		}
		at += gap
		n++
		if at > until {
			return k
		}
		k++
	}
}

// gapAfter is the shortest virtual wait after attempt n before the same
// event's next attempt, as nanoseconds; -1 when attempt n is certainly the
// last. The schedule's delay, unless a manual redelivery could come sooner
// (a Retry-After only ever lengthens a wait).
func (e *engine) gapAfter(n int) int64 {
	if n < len(e.gaps) {
		return e.gaps[n]
	}
	return -1
}

// nextGaps lists gapAfter by attempt number: index n is the gap after
// attempt n (index 0 unused).
func nextGaps(p *policies.Policy, redelivery int64, manual bool) []int64 {
	max := p.MaxAttempts()
	gaps := make([]int64, max+2)
	gaps[0] = -1
	for n := 1; n <= max+1; n++ {
		g := int64(-1)
		if d, more := p.Delay(n); more {
			g = int64(d)
		}
		if manual && n <= max && (g < 0 || redelivery < g) {
			g = redelivery
		}
		gaps[n] = g
	}
	return gaps
}

// objectBlocked reports whether attempt d must wait for another event about
// the same object: one that has not reached the handler yet and whose
// pending attempt, which may be its first arrival there, comes before d.
// Events about one object thus first reach the handler in virtual-time
// order (what the report counts as reordered is what the scenario made
// so); once an event has reached the handler, its later attempts hold
// nothing back and wait for nothing.
func (e *engine) objectBlocked(d *due) bool {
	m := e.work.objects()
	if m >= e.cfg.Events {
		return false // every event is about an object of its own
	}
	ev := d.event()
	if st := e.live.get(ev); st.reached() {
		return false
	}
	for o := ev % m; o < e.cfg.Events; o += m {
		if o == ev {
			continue
		}
		st := e.live.get(o)
		if st == nil || st.reached() || st.stage == stageDone {
			continue // ended, started after d, or arrived already
		}
		pending := due{at: e.live.ext(o).at, key: uint64(o)<<nBits | uint64(st.attempts()+1)}
		if pending.before(d) {
			return true
		}
	}
	return false
}

// restart performs the next restart moment: the clock is moved to it (every
// attempt due before it has finished), the Restart hook is called, and a
// restart record is emitted. A hook that fails while ctx is live stops the
// run: restart keeps the failure in e.restartFailed, for the caller to
// stop sending, and returns nil; one that fails because ctx ended returns
// its error (an interruption).
func (e *engine) restart(ctx context.Context) error {
	at := e.virtual(e.restarts[0])
	e.restarts = e.restarts[1:]
	if err := e.waitUntil(ctx, at); err != nil {
		return err
	}
	e.res.Restarts++
	r := e.base
	r.Kind, r.Restart, r.Time = KindRestart, e.res.Restarts, at
	var hookErr error
	if e.cfg.Restart != nil {
		hookErr = e.cfg.Restart(ctx)
		if hookErr != nil {
			r.Error = hookErr.Error()
		}
	}
	if e.client != nil {
		// Kept-alive connections died with the old process; a request
		// written into one would look as if it had reached the handler.
		e.client.CloseIdleConnections()
	}
	if err := e.emit(r); err != nil {
		return err
	}
	if hookErr != nil {
		failed := &RestartError{At: at.Sub(e.cfg.Start), Err: hookErr}
		if ctx.Err() != nil {
			return failed
		}
		e.restartFailed = failed
	}
	return nil
}
