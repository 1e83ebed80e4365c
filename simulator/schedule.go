package simulator

import (
	"context"
	"errors"
	"slices"
	"time"

	"github.com/jonboulle/clockwork"
	"github.com/retrysim/retrysim/policies"
)

// The scheduler decides what is sent when. Every attempt known to the run
// is in one of four places: the queue (due, not yet looked at), waiting
// (looked at, held back by a coupling), sent (a request out, no answer yet)
// or answered (in the reorder buffer, not yet committed). An answer is
// decided as soon as it comes (fate.go): the event's next attempt, if any,
// is queued at once, so an event's chain never waits for another event's.
// Answers are committed strictly in (virtual time, event, attempt) order,
// the order a serial run takes them in: an answer waits in the buffer until
// nothing before it is still unsent or unanswered. Committing emits the
// records, feeds the disable rule and ends events, so what a run records
// does not depend on when answers came back.
//
// An attempt is sent as soon as a slot is free and no coupling holds it
// back (couplings.go); nothing else waits for anything. A run therefore
// lasts about as long as its longest chain of real waits.

// schedule runs the workload to its end (or its interruption). With one
// attempt in flight at most (a dry run, which answers at once, or a
// concurrency of 1) the attempts are simply performed one after another in
// order; otherwise they go out concurrently.
func (e *engine) schedule(ctx context.Context) error {
	e.queueArrival()
	var err error
	if e.cfg.Incoming == nil && (e.cfg.DryRun || e.cfg.Concurrency == 1) {
		err = e.serial(ctx)
	} else {
		err = e.concurrent(ctx)
	}
	if err == nil {
		err = e.q.err
	}
	if err != nil {
		return err
	}
	if e.res.Interrupted {
		return e.drain(FateInterrupted, false)
	}
	return nil
}

// serial performs the attempts one at a time, in order: the reference
// every concurrent run must match.
func (e *engine) serial(ctx context.Context) error {
	if e.dec == nil {
		e.dec = e.cfg.Scenario.Decider()
	}
	// A dry run's fake clock is moved once, at the end: nothing reads it
	// in between, and moving it is most of an attempt's cost.
	lazy := e.cfg.DryRun && !e.cfg.Realtime
	var o outcome
	var nx next
	for e.q.Len() > 0 {
		if ctx.Err() != nil {
			e.res.Interrupted = true
			break
		}
		at := e.q.peek().at
		if e.restartDue(at) {
			if err := e.restart(ctx); err != nil {
				if ctx.Err() != nil {
					e.res.Interrupted = true
					break
				}
				return err
			}
			if e.restartFailed != nil {
				e.res.Interrupted = true
				break
			}
			continue
		}
		if !lazy {
			if err := e.waitUntil(ctx, e.virtual(at)); err != nil {
				e.res.Interrupted = true
				break
			}
		}
		d := e.pop()
		if e.tenantOff(d.event()) {
			e.leave(&d)
			if err := e.lose(&d); err != nil {
				return err
			}
			continue
		}
		st := e.take(d)
		st.set(flagPaused, e.dis.pausedAt(e, d.at))
		e.attempt(ctx, &d, st, e.dec, &o, nil)
		e.decide(&d, st, &o, &nx)
		disabled, err := e.commit(&d, st, &o, &nx)
		if err != nil {
			return err
		}
		if disabled {
			if err := e.drain(FateDisabled, true); err != nil {
				return err
			}
		}
	}
	if lazy {
		return e.waitUntil(ctx, e.endTime())
	}
	return nil
}

// take notes that attempt d leaves the queue; an event's first attempt
// starts the event, and queues the next event's arrival (unless the
// provider held that attempt back and it is now due again: the event has
// started already).
func (e *engine) take(d due) eventRef {
	fresh := d.n() == 1 && e.live.get(d.event()) == nil
	if fresh {
		e.start(d)
		e.queueArrival()
	}
	if e.q.carry {
		e.takeNames(d.event(), fresh)
	}
	return e.live.ref(d.event())
}

// push queues attempt d of a started event.
func (e *engine) push(d due, st eventRef) {
	st.setAt(d.at, stageQueued)
	if e.q.carry && d.event() == e.cur.event {
		e.q.pushNames(d, &e.cur.carried)
		return
	}
	e.q.push(d)
}

// errStuck would mean the scheduler holds an attempt back with nothing in
// flight that could ever release it: a bug, reported rather than hung on.
var errStuck = errors.New("simulator: scheduler stuck with nothing in flight")

// concurrent sends attempts as their couplings allow, up to the
// concurrency at once, and commits the answers in order.
func (e *engine) concurrent(ctx context.Context) error {
	s := &e.sch
	s.start(ctx, e, e.cfg.Concurrency)
	defer s.stop()
	for {
		disabled, err := e.commitInOrder()
		if err != nil {
			return err
		}
		if disabled {
			return e.disabled()
		}
		if ctx.Err() != nil {
			return e.interrupt()
		}
		idle := e.uncommitted() == 0
		if idle && (e.cfg.Incoming == nil || e.incomingDone) {
			return nil
		}
		if !idle && s.inFlight == 0 && e.restartDue(e.earliest().at) {
			if err := e.restart(ctx); err != nil {
				if ctx.Err() != nil {
					return e.interrupt()
				}
				return err
			}
			if e.restartFailed != nil {
				return e.interrupt()
			}
			continue
		}
		wake := e.fill()
		if s.inFlight == 0 && wake.IsZero() && !idle {
			if s.sent.Len() > 0 && s.sent.peek().done {
				continue // attempts of disabled tenants, to commit
			}
			return errStuck
		}
		// Deliveries come in until the channel is closed; a nil channel
		// is never ready.
		incoming := e.cfg.Incoming
		if e.incomingDone {
			incoming = nil
		}
		var timer clockwork.Timer
		var ring <-chan time.Time
		if !wake.IsZero() {
			timer = e.cfg.Clock.NewTimer(wake.Sub(e.cfg.Clock.Now()))
			ring = timer.Chan()
		}
		select {
		case sig := <-s.signals:
			e.onSignal(sig)
			for more := true; more; {
				select {
				case sig := <-s.signals:
					e.onSignal(sig)
				default:
					more = false
				}
			}
		case in, open := <-incoming:
			if !open {
				e.incomingDone = true
				continue
			}
			e.arrive(&in)
		case <-ring:
		case <-ctx.Done():
		}
		if timer != nil {
			timer.Stop()
		}
	}
}

// uncommitted counts the attempts known to the run and not yet committed.
func (e *engine) uncommitted() int { return e.q.Len() + len(e.sch.waiting) + e.sch.sent.Len() }

// earliest is the first uncommitted attempt in order; there must be one.
func (e *engine) earliest() *due {
	s := &e.sch
	var first *due
	if e.q.Len() > 0 {
		first = e.q.peek()
	}
	if len(s.waiting) > 0 && (first == nil || s.waiting[0].before(first)) {
		first = &s.waiting[0]
	}
	if s.sent.Len() > 0 && (first == nil || s.sent.peek().d.before(first)) {
		first = &s.sent.peek().d
	}
	return first
}

// commitInOrder commits the answers at the front of the reorder buffer:
// each one once nothing before it is unsent or unanswered. It stops at an
// answer that disabled the endpoint.
func (e *engine) commitInOrder() (bool, error) {
	s := &e.sch
	for s.sent.Len() > 0 {
		f := s.sent.peek()
		if !f.done || (e.q.Len() > 0 && e.q.peek().before(&f.d)) || (len(s.waiting) > 0 && s.waiting[0].before(&f.d)) {
			return false, nil
		}
		s.sent.pop()
		if disabled, err := e.commitFlight(f); err != nil || disabled {
			return disabled, err
		}
	}
	return false, nil
}

// commitFlight commits the answer of f, taken off the reorder buffer, and
// releases it: a lost attempt, one the run's interruption kept from going
// out, or an answer. It says whether the answer disabled the endpoint.
func (e *engine) commitFlight(f *flight) (disabled bool, err error) {
	defer e.sch.release(f)
	switch {
	case f.lost:
		return false, e.lose(&f.d)
	case f.o.unsent:
		// The run was interrupted before the request went out.
		e.unsent(&f.d)
		return false, nil
	}
	if f.reached.Load() == f.gen && !f.st.reached() {
		// A write that ended after the answer, noted and not signalled
		// (tellReached). Written only then: the event's next attempt may
		// be out, reading its flags.
		f.st.set(flagReached, true)
	}
	return e.commit(&f.d, f.st, &f.o, &f.next)
}

// fill sends, in order, every attempt no coupling holds back, while a slot
// is free. It returns when the first attempt held back for the real clock
// is due (with Realtime), else the zero time.
func (e *engine) fill() time.Time {
	s := &e.sch
	if len(s.waiting) == 0 {
		s.tellReached.Store(false)
	}
	i := 0 // waiting[:i] were looked at in this pass and are still held back
	for s.inFlight < e.cfg.Concurrency {
		var d due
		queued := false
		switch {
		case i < len(s.waiting) && (e.q.Len() == 0 || s.waiting[i].before(e.q.peek())):
			d = s.waiting[i]
		case e.q.Len() > 0:
			d, queued = *e.q.peek(), true
		default:
			return time.Time{}
		}
		// The couplings that hold back every attempt after this one too.
		if e.restartDue(d.at) {
			return time.Time{}
		}
		if e.tenantOff(d.event()) {
			// Its tenant was disabled: committed in order, never sent.
			if queued {
				e.pop()
				e.leave(&d)
			} else {
				s.waiting = slices.Delete(s.waiting, i, i+1)
			}
			s.sendLost(d)
			continue
		}
		if e.cfg.Realtime {
			// On the real clock an attempt goes at its own time, not early;
			// a fake clock is moved to it when it is sent (launch).
			if _, fake := e.cfg.Clock.(*clockwork.FakeClock); !fake {
				if t := e.virtual(d.at); t.After(e.cfg.Clock.Now()) {
					return t
				}
			}
		}
		if !e.disableSafe(&d, s.waiting[:i]) {
			return time.Time{}
		}
		// The coupling that holds back this attempt alone.
		if queued {
			e.pop()
			st := e.take(d)
			if e.heldBack(&d) {
				st.setAt(d.at, stageWaiting)
				s.waiting = slices.Insert(s.waiting, i, d)
				i++
				continue
			}
			e.launch(d, st)
			continue
		}
		if e.heldBack(&d) {
			i++
			continue
		}
		s.waiting = slices.Delete(s.waiting, i, i+1)
		e.launch(d, e.live.ref(d.event()))
	}
	return time.Time{}
}

// heldBack is objectBlocked(d), with every request that reached the
// handler known: when the workers do not signal them (tellReached), the
// flights in flight are looked at first, and from then on they do. A
// worker notes a write in its flight before it reads tellReached, and
// here tellReached is set before the flights are read, so a write is
// either seen here or signalled.
func (e *engine) heldBack(d *due) bool {
	s := &e.sch
	if !e.objectBlocked(d) {
		return false
	}
	if s.tellReached.Load() {
		return true
	}
	s.tellReached.Store(true)
	for _, f := range s.sent.items {
		if !f.lost && f.reached.Load() == f.gen && !(f.done && f.st.reached()) {
			e.onSignal(signal{f: f, gen: f.gen, reached: true})
		}
	}
	return e.objectBlocked(d)
}

// launch sends attempt d.
func (e *engine) launch(d due, st eventRef) {
	if fc, ok := e.cfg.Clock.(*clockwork.FakeClock); ok {
		// The fake clock follows the latest attempt sent; it never goes
		// back for an earlier one sent later.
		if dt := e.virtual(d.at).Sub(fc.Now()); dt > 0 {
			fc.Advance(dt)
		}
	}
	st.setAt(d.at, stageSent)
	// Every attempt before it that could pause the endpoint is committed
	// (disableSafe), so the disable rule knows whether it is paused.
	st.set(flagPaused, e.dis.pausedAt(e, d.at))
	e.horizon = max(e.horizon, d.at)
	e.sch.send(d, st)
}

// onSignal notes what a worker reports: a request of an attempt reached
// the handler, or the attempt is over, and then its answer is decided at
// once (its event's next attempt queued); it is committed in order later.
func (e *engine) onSignal(sig signal) {
	f := sig.f
	if sig.gen != f.gen {
		return // about an attempt committed already
	}
	if sig.reached {
		f.st.set(flagReached, true)
		if !f.done {
			f.st.stage = stageReached
		}
		return
	}
	f.done = true
	e.sch.inFlight--
	if in := f.st.delivery(); f.d.n() == 1 && in != nil && in.First != nil {
		in.First <- FirstAnswer{HandlerStatus: f.o.handlerStatus, Outcome: f.o.outcome, Fault: f.o.fault}
		in.First = nil
	}
	f.st.stage = stageReached
	f.st.set(flagReached, f.st.reached() || f.o.reached || (f.o.dup != nil && f.o.dup.reached))
	if !f.o.unsent {
		e.decide(&f.d, f.st, &f.o, &f.next)
		// The answer's headers were for deciding; the reorder buffer may
		// hold many answers for a while.
		f.o.header = nil
		if f.o.dup != nil {
			f.o.dup.header = nil
		}
	}
}

// disabled ends the run at the moment the endpoint was disabled. The
// lookahead sent nothing after that moment; whatever is still out would be
// a bug, counted, and its answer ignored.
func (e *engine) disabled() error {
	s := &e.sch
	for s.inFlight > 0 {
		e.onSignal(<-s.signals)
	}
	for s.sent.Len() > 0 {
		e.sentAfterDisable++
		s.release(s.sent.pop())
	}
	s.waiting = s.waiting[:0]
	return e.drain(FateDisabled, true)
}

// interrupt stops sending, lets the attempts in flight finish, and commits
// every answer in order; the attempts never sent stay unsent.
func (e *engine) interrupt() error {
	s := &e.sch
	e.res.Interrupted = true
	for s.inFlight > 0 {
		e.onSignal(<-s.signals)
	}
	for s.sent.Len() > 0 {
		disabled, err := e.commitFlight(s.sent.pop())
		if err != nil {
			return err
		}
		if disabled {
			for s.sent.Len() > 0 {
				s.release(s.sent.pop())
			}
			s.waiting = s.waiting[:0]
			return e.drain(FateDisabled, true)
		}
	}
	for i := range s.waiting {
		e.unsent(&s.waiting[i])
	}
	s.waiting = s.waiting[:0]
	return nil
}

// queueArrival queues the first attempt of the next event, if any. Only one
// future arrival is queued at a time, so the queue holds the events in flight,
// not the whole workload.
func (e *engine) queueArrival() {
	e.arrived = e.nextInShard(e.arrived)
	if e.cfg.Incoming != nil || e.arrived >= e.cfg.Events {
		return
	}
	e.q.push(newDue(e.work.arrival(e.arrived), e.arrived, 1))
	e.arrived++
}

// waitUntil moves the engine's clock to t: a fake clock is advanced, the real
// one is waited for.
func (e *engine) waitUntil(ctx context.Context, t time.Time) error {
	if fc, ok := e.cfg.Clock.(*clockwork.FakeClock); ok {
		if d := t.Sub(fc.Now()); d > 0 {
			fc.Advance(d)
		}
		return nil
	}
	d := t.Sub(e.cfg.Clock.Now())
	if d <= 0 {
		return nil
	}
	select {
	case <-e.cfg.Clock.After(d):
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// virtual turns an offset from the run's start into a virtual time: the
// start plus at. For a start in UTC without a monotonic reading (a fake
// clock's, as nearly every run's is) the sum is made from Unix seconds and
// nanoseconds, which is the same Time at a third of Time.Add's cost (a
// test compares the two), once for every attempt.
func (e *engine) virtual(at int64) time.Time {
	if e.unixStart {
		return time.Unix(e.startSec, e.startNsec+at).UTC()
	}
	return e.cfg.Start.Add(time.Duration(at))
}

// plainUTC reports whether t is in UTC and has no monotonic clock reading,
// so that time.Unix(t.Unix(), t.Nanosecond()).UTC() is t itself.
func plainUTC(t time.Time) bool { return t.Location() == time.UTC && t == t.Round(0) }

// start creates the state of an event at its first attempt. A dry run keeps
// only what the records need.
func (e *engine) start(d due) {
	var ev policies.Event
	var in *Incoming
	var x eventExt
	switch {
	case e.cfg.Incoming != nil:
		ev, in = e.liveEvent(d.event(), d.offset())
		x = newEventExt(ev.ID, ev.Object, d.offset())
	case e.cfg.DryRun:
		// Nothing kept: names and first make it again from the seed.
	default:
		ev = e.work.event(d.event())
		x = newEventExt(ev.ID, ev.Object, d.offset())
	}
	if !e.cfg.DryRun {
		x.req = &requestState{ev: ev, in: in} // the body is built when first sent
		if in != nil {
			x.req.body, x.req.ctype = in.Body, in.Header.Get("Content-Type")
		}
	}
	x.at = d.at
	e.live.add(d.event(), eventState{}, x)
	e.res.Events++
}
