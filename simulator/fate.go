package simulator

import (
	"maps"
	"slices"
	"time"

	"github.com/retrysim/retrysim/policies"
	"github.com/retrysim/retrysim/scenarios"
)

// An attempt's answer is taken in two steps. decide runs as soon as the
// answer is in, in whatever order answers come: it judges the answer as
// the provider would and queues the event's next attempt, if any, so the
// event's chain goes on without waiting for other events. commit runs in
// virtual-time order (the reorder buffer's): it emits the records, feeds
// the endpoint-disable rule and counts the event's fate. Nothing decide
// does depends on another event; everything that does is in commit.

// next is what decide concluded from an attempt's answer, for commit.
type next struct {
	signal    string // what happened, in words, for the attempt's record
	dupSignal string // the same for the second request of a duplicated attempt
	disable   bool   // the answer disables the endpoint at once
	failed    bool   // the attempt failed (both requests, when duplicated)
	manual    bool   // the attempt was a manual redelivery
	held      bool   // the provider held the attempt back: nothing was sent
	// fate is the event's fate when this attempt ends it; "" when another
	// attempt follows.
	fate            string
	delivered, lost int // what the attempt changes in the run's counts
}

// This names every field of next, unkeyed, so that adding one fails
// to compile here: decide must then set it too.
var _ = next{"", "", false, false, false, false, "", 0, 0}

// decide judges attempt d's answer o, queues what follows for its event
// and writes what commit needs in nx (through a pointer, as judge does).
func (e *engine) decide(d *due, st eventRef, o *outcome, nx *next) {
	n := d.n()
	nx.held = o.held > 0
	if nx.held {
		// Not sent: the same attempt is due again after the hold.
		*nx = next{held: true}
		st.set(flagHeld, true)
		e.push(newDue(d.offset()+o.held, d.event(), n), st)
		return
	}
	st.set(flagHeld, false)
	if o.providerDropped || o.paused {
		*nx = next{lost: 1, fate: FateDropped}
		if o.paused {
			nx.fate = FatePaused
		}
		if st.subDelivered() {
			// Another subscription's delivery of the event succeeded.
			*nx = next{delivered: 1, fate: FateDelivered}
		}
		st.stage = stageDone
		return
	}
	st.setAttempts(n)
	var v verdict
	e.judge(o, &v)
	delay, more := e.cfg.Policy.Delay(n)
	if more && v.retryAfter > delay {
		delay = v.retryAfter
		v.signal = "next attempt delayed by Retry-After to " + policies.FormatDuration(delay)
	}
	if e.subs(d.event(), st) != 0 || len(o.fan) > 0 {
		e.decideFanned(d, st, o, &v, delay, more, nx)
		return
	}
	// Every field of nx, one by one (the unkeyed next above fails to
	// compile when one is added): a composite literal is built aside and copied
	// over, and reading its flags back a word at a time stalls.
	nx.signal, nx.dupSignal, nx.fate = v.signal, "", ""
	nx.disable, nx.failed, nx.manual = v.disable, o.outcome.Failed(), st.scheduleFate() != 0
	nx.delivered, nx.lost = 0, 0
	if o.dup != nil {
		// The second of two identical requests: the provider classifies
		// its answer too, and the event is delivered if either was.
		var dv verdict
		e.judge(o.dup, &dv)
		nx.dupSignal = dv.signal
		nx.failed = nx.failed && o.dup.outcome.Failed()
	}
	switch {
	case nx.manual:
		// After a manual redelivery: an event the schedule had given up
		// on is delivered after all if the resend was.
		nx.fate = scheduleFates[st.scheduleFate()]
		if !nx.failed && nx.fate != FateDelivered {
			nx.lost, nx.delivered = -1, 1
			nx.fate = FateDelivered
		}
	case !nx.failed:
		nx.delivered = 1
		nx.fate = e.scheduleOver(d, st, FateDelivered)
	case v.stop && v.noRetry:
		nx.lost = 1
		nx.fate = e.scheduleOver(d, st, FateExhausted)
	case v.stop:
		nx.lost = 1
		nx.fate = FateStopped
	case more:
		if req := st.req(); req != nil {
			req.reason = slackReason(o)
		}
		e.push(newDue(d.offset()+delay, d.event(), n+1), st)
	default:
		nx.lost = 1
		nx.fate = e.scheduleOver(d, st, FateExhausted)
	}
	if nx.fate != "" {
		st.stage = stageDone
	}
}

// decideFanned is decide for an attempt sent through several
// subscriptions (fan-out), whose answer o (the first subscription's, the
// others' in o.fan) was judged as v, with the schedule's next delay and
// whether it has a next attempt. Each subscription's delivery is retried
// on its own schedule until it succeeds, is stopped by its answer, or the
// schedule ends; the others' are over. As the schedule depends only on the
// attempt's number, the retries of the subscriptions still failing are due
// together: they stay one attempt of the event, which is sent through those
// subscriptions alone, after the longest Retry-After any of them was given.
// The event ends when every subscription's delivery has, delivered if any
// subscription's was.
func (e *engine) decideFanned(d *due, st eventRef, o *outcome, v *verdict, delay time.Duration, more bool, nx *next) {
	n := d.n()
	*nx = next{signal: v.signal, disable: v.disable, manual: st.scheduleFate() != 0}
	var again uint16    // the subscriptions whose deliveries are retried
	failed := true      // every request of the attempt failed
	var reason *outcome // the first retried request's (Slack's retry reason)
	note := func(r *outcome, rv *verdict, subs uint16) {
		switch {
		case !r.outcome.Failed():
			failed = false
		case !rv.stop:
			if again == 0 {
				reason = r
			}
			again |= subs
			if more {
				delay = max(delay, rv.retryAfter)
			}
		}
	}
	subs := e.subs(d.event(), st)
	if len(o.fan) == 0 && subs != 1<<o.sub {
		// Nothing was sent (an outage, a dropped request: the attempt
		// ended before sendFanned): it failed for every subscription it
		// was for, and those are all retried.
		note(o, v, subs)
	} else {
		note(o, v, 1<<o.sub) // (no duplicated request: fan-out and duplicate exclude each other)
		for i := range o.fan {
			var fv verdict
			e.judge(&o.fan[i], &fv)
			note(&o.fan[i], &fv, 1<<o.fan[i].sub)
		}
	}
	nx.failed = failed
	st.set(flagSubDelivered, st.subDelivered() || !failed)
	e.setSubs(d.event(), st, 0)
	switch {
	case nx.manual:
		// After a manual redelivery (through every subscription), as
		// decide has it.
		nx.fate = scheduleFates[st.scheduleFate()]
		if !failed && nx.fate != FateDelivered {
			nx.lost, nx.delivered = -1, 1
			nx.fate = FateDelivered
		}
	case again != 0 && more:
		e.setSubs(d.event(), st, again)
		if req := st.req(); req != nil {
			req.reason = slackReason(reason)
		}
		e.push(newDue(d.offset()+delay, d.event(), n+1), st)
	case st.subDelivered():
		nx.delivered = 1
		nx.fate = e.scheduleOver(d, st, FateDelivered)
	case v.stop && !v.noRetry:
		nx.lost = 1
		nx.fate = FateStopped
	default:
		nx.lost = 1
		nx.fate = e.scheduleOver(d, st, FateExhausted)
	}
	if nx.fate != "" {
		st.stage = stageDone
	}
}

// commit records attempt d of the event st as decided and reports whether
// the endpoint is now disabled.
func (e *engine) commit(d *due, st eventRef, o *outcome, nx *next) (bool, error) {
	at := e.virtual(d.at)
	if nx.held {
		return false, nil
	}
	if o.providerDropped || o.paused {
		e.res.Delivered += nx.delivered
		e.res.Lost += nx.lost
		return false, e.endWith(d.event(), nx.fate, at, o.fault)
	}
	e.lastAt = max(e.lastAt, d.at)
	if err := e.recordAttempt(d, at, st, o, nx.signal, 0, nx.manual); err != nil {
		return false, err
	}
	if o.dup != nil {
		if err := e.recordAttempt(d, at, st, o.dup, nx.dupSignal, 1, nx.manual); err != nil {
			return false, err
		}
	}
	for i := range o.fan {
		var fv verdict
		e.judge(&o.fan[i], &fv)
		if err := e.recordAttempt(d, at, st, &o.fan[i], fv.signal, 0, nx.manual); err != nil {
			return false, err
		}
	}
	for i := range o.attacks {
		if err := e.recordAttack(d, at, &o.attacks[i], 0); err != nil {
			return false, err
		}
	}
	disabled := e.disablerOf(d.event()).record(at, nx.failed)
	var by string
	var cause DisableCause
	switch {
	case nx.disable:
		disabled = true
		by, cause = nx.signal, DisabledBySignal
	case disabled:
		by, cause = e.cfg.Policy.Disable.String(), DisabledByRule
	}
	e.res.Delivered += nx.delivered
	e.res.Lost += nx.lost
	var id string
	if disabled && e.ten.n > 1 {
		id, _ = e.names(d.event(), st) // before end forgets it
	}
	var err error
	if nx.fate != "" {
		err = e.end(d.event(), nx.fate, at)
	}
	if disabled && e.ten.n > 1 {
		// One tenant's subscription: the run goes on for the others.
		if err == nil {
			err = e.disableTenant(d, id, at, by, cause)
		}
		return false, err
	}
	if disabled {
		e.res.DisabledAt = at
		e.disabledBy, e.disabledCause = by, cause
	}
	return disabled, err
}

// scheduleOver ends an event whose automatic schedule is over with fate,
// unless the scenario has someone resend it by hand within the policy's
// manual redelivery window: then that attempt is queued and the event
// stays open (scheduleOver returns ""). (Settling is the effects
// oracle's: settle.go.)
func (e *engine) scheduleOver(d *due, st eventRef, fate string) string {
	var c scenarios.Context
	e.faultContext(&c, d, st)
	c.Attempt = d.n() + 1
	after, ok := e.cfg.Scenario.Redelivery(e.cfg.Seed, c)
	manual := e.cfg.Policy.ManualRedelivery.D()
	if !ok || manual <= 0 || d.offset()+after-e.first(d.event(), st) > manual {
		return fate
	}
	st.setScheduleFate(fateCode(fate))
	e.push(newDue(d.offset()+after, d.event(), d.n()+1), st)
	return ""
}

// unsent takes back an attempt that an interruption kept from
// being sent: its event stays in flight (and ends interrupted), or, if it
// was the event's first attempt, never started.
func (e *engine) unsent(d *due) {
	if d.n() != 1 {
		return
	}
	if in := e.live.ref(d.event()).delivery(); in != nil {
		// A real delivery, taken in and never sent: it waits with those
		// not started yet, to be ended with its own id and type (drain).
		e.incoming[d.event()] = in
	} else {
		e.unstarted = append(e.unstarted, d.event())
	}
	e.live.remove(d.event())
	e.res.Events--
}

// end emits an event's fate and forgets it.
func (e *engine) end(event int, fate string, at time.Time) error {
	return e.endWith(event, fate, at, "")
}

// endWith is end for an event whose fate faults decided without an
// attempt being sent (the provider dropped it): fault names them.
func (e *engine) endWith(event int, fate string, at time.Time, fault string) error {
	r := &e.out
	*r = e.base
	r.Kind, r.Fate, r.Seq, r.Time, r.Fault = KindEvent, fate, event, at, fault
	r.Tenant = e.tenantLabel(event)
	if st := e.live.ref(event); st.eventState != nil {
		r.EventID, _ = e.names(event, st)
		r.Attempts = st.attempts()
		if in := st.delivery(); in != nil {
			r.Type = in.Type
		}
		r.At = at.Sub(e.cfg.Start.Add(e.first(event, st)))
		e.live.remove(event)
	} else if in := e.incoming[event]; in != nil {
		// A real delivery that never started.
		r.EventID, r.Type = in.ID, in.Type
		delete(e.incoming, event)
	} else {
		r.EventID = e.work.event(event).ID
	}
	return e.emitOut()
}

// endTime is when the run stopped, in virtual time: its last attempt (or the
// disable moment, or its start when nothing was sent). Unlike the clock, it
// does not depend on the order answers came back in.
func (e *engine) endTime() time.Time {
	t := e.virtual(e.lastAt)
	if e.res.DisabledAt.After(t) {
		t = e.res.DisabledAt
	}
	return t
}

// drain ends every event still pending with fate. With all set, events that
// have not started yet end too (the endpoint is gone: they are lost);
// otherwise only the events in flight do.
func (e *engine) drain(fate string, all bool) error {
	at := e.endTime()
	if fate == FateDisabled {
		at = e.res.DisabledAt
	}
	for _, ev := range e.live.pending() {
		f := fate
		if code := e.live.get(ev).scheduleFate(); code != 0 {
			// Its schedule had ended; only a manual resend was still to come.
			f = scheduleFates[code]
		} else if e.live.get(ev).subDelivered() {
			// One subscription's delivery succeeded; others' were retried.
			f = FateDelivered
			e.res.Delivered++
		} else if fate == FateDisabled {
			e.res.Lost++
		}
		if err := e.end(ev, f, at); err != nil {
			return err
		}
	}
	e.q.reset()
	// Real deliveries taken in and never sent (their first attempt queued,
	// or kept back by an interruption) end with the run, whatever it
	// was: unlike a generated event, nothing else would ever say they
	// came.
	for _, ev := range slices.Sorted(maps.Keys(e.incoming)) {
		if fate == FateDisabled {
			e.res.Lost++
		}
		e.res.Events++
		if err := e.end(ev, fate, at); err != nil {
			return err
		}
	}
	if !all {
		return nil
	}
	// The one queued arrival was dropped with the queue; it and every later
	// event never reach the endpoint, nor do those whose first attempt an
	// interruption kept back. Events start in order, so those from the next
	// to start on have not.
	lose := func(ev int) error {
		e.res.Lost++
		return e.end(ev, fate, at)
	}
	for _, ev := range e.unstarted {
		if err := lose(ev); err != nil {
			return err
		}
	}
	e.unstarted = nil
	for ev := e.nextInShard(e.live.next); ev < e.cfg.Events; ev = e.nextInShard(ev + 1) {
		if err := lose(ev); err != nil {
			return err
		}
	}
	e.arrived = e.cfg.Events
	return nil
}
