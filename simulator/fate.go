package simulator

import (
	"time"

	"github.com/retrysim/retrysim/policies"
)

// apply records an attempt's outcome, decides what happens next to its
// event, and reports whether the endpoint is now disabled.
func (e *engine) apply(d *due, o *outcome) (bool, error) {
	event, n, at := d.event(), d.n(), e.virtual(d.at)
	if at.After(e.lastAt) {
		e.lastAt = at
	}
	st := e.live.get(event)
	st.attempts = int32(n)
	v := e.judge(o)
	delay, more := e.cfg.Policy.Delay(n)
	if more && v.retryAfter > delay {
		delay = v.retryAfter
		v.signal = "next attempt delayed by Retry-After to " + policies.FormatDuration(delay)
	}
	if err := e.recordAttempt(d, st, o, v.signal, 0); err != nil {
		return false, err
	}
	failed := o.outcome.Failed()
	if o.dup != nil {
		// The second of two identical requests: the provider classifies
		// its answer too, and the event is delivered if either was.
		dv := e.judge(o.dup)
		if err := e.recordAttempt(d, st, o.dup, dv.signal, 1); err != nil {
			return false, err
		}
		failed = failed && o.dup.outcome.Failed()
	}
	for i := range o.attacks {
		if err := e.recordAttack(d, at, &o.attacks[i], 0); err != nil {
			return false, err
		}
	}
	disabled := e.dis.record(at, failed)
	switch {
	case v.disable:
		disabled = true
		e.disabledBy = v.signal
	case disabled:
		e.disabledBy = e.cfg.Policy.Disable.String()
	}
	var err error
	switch {
	case st.settled != 0:
		err = e.afterManual(d, st, failed)
	case !failed:
		e.res.Delivered++
		err = e.settle(d, st, FateDelivered)
	case v.stop && v.noRetry:
		e.res.Lost++
		err = e.settle(d, st, FateExhausted)
	case v.stop:
		e.res.Lost++
		err = e.end(event, FateStopped, at)
	case more:
		if st.req != nil {
			st.req.reason = slackReason(o.outcome)
		}
		e.push(newDue(d.offset()+delay, event, n+1), st)
	default:
		e.res.Lost++
		err = e.settle(d, st, FateExhausted)
	}
	if disabled {
		e.res.DisabledAt = at
	}
	return disabled, err
}

// settle ends an event whose automatic schedule is over with fate, unless
// the scenario has someone resend it by hand within the policy's manual
// redelivery window: then that attempt is queued and the event stays open.
func (e *engine) settle(d *due, st *eventState, fate string) error {
	c := e.faultContext(d, st)
	c.Attempt = d.n() + 1
	after, ok := e.cfg.Scenario.Redelivery(e.cfg.Seed, c)
	manual := e.cfg.Policy.ManualRedelivery.D()
	if !ok || manual <= 0 || d.offset()+after-st.first > manual {
		return e.end(d.event(), fate, e.virtual(d.at))
	}
	st.settled = fateCode(fate)
	e.push(newDue(d.offset()+after, d.event(), d.n()+1), st)
	return nil
}

// afterManual ends an event after its manual redelivery: an event the
// schedule had given up on is delivered after all if the resend was.
func (e *engine) afterManual(d *due, st *eventState, failed bool) error {
	fate := settledFates[st.settled]
	if !failed && fate != FateDelivered {
		e.res.Lost--
		e.res.Delivered++
		fate = FateDelivered
	}
	return e.end(d.event(), fate, e.virtual(d.at))
}

// unsent takes back an attempt of the wave that an interruption kept from
// being sent: its event stays in flight (and ends interrupted), or, if it
// was the event's first attempt, never started.
func (e *engine) unsent(d *due) {
	if d.n() == 1 {
		e.live.remove(d.event())
		e.unstarted = append(e.unstarted, d.event())
		e.res.Events--
	}
}

// end emits an event's fate and forgets it.
func (e *engine) end(event int, fate string, at time.Time) error {
	r := e.base
	r.Kind, r.Fate, r.Seq, r.Time = KindEvent, fate, event, at
	if st := e.live.get(event); st != nil {
		r.Event, r.N = st.id(), int(st.attempts)
		r.AtSeconds = at.Sub(e.cfg.Start.Add(st.first)).Seconds()
		e.live.remove(event)
	} else {
		r.Event = e.work.event(event).ID
	}
	return e.emit(r)
}

// drain ends every event still pending with fate. With all set, events that
// have not started yet end too (the endpoint is gone: they are lost);
// otherwise only the events in flight do.
// endTime is when the run stopped, in virtual time: its last attempt (or the
// disable moment, or its start when nothing was sent). Unlike the clock, it
// does not depend on how attempts were grouped into waves.
func (e *engine) endTime() time.Time {
	t := e.cfg.Start
	if e.lastAt.After(t) {
		t = e.lastAt
	}
	if e.res.DisabledAt.After(t) {
		t = e.res.DisabledAt
	}
	return t
}

func (e *engine) drain(fate string, all bool) error {
	at := e.endTime()
	if fate == FateDisabled {
		at = e.res.DisabledAt
	}
	for _, ev := range e.live.pending() {
		f := fate
		if settled := e.live.get(ev).settled; settled != 0 {
			// Its schedule had ended; only a manual resend was still to come.
			f = settledFates[settled]
		} else if fate == FateDisabled {
			e.res.Lost++
		}
		if err := e.end(ev, f, at); err != nil {
			return err
		}
	}
	e.q.reset()
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
	for ev := e.live.next; ev < e.cfg.Events; ev++ {
		if err := lose(ev); err != nil {
			return err
		}
	}
	e.arrived = e.cfg.Events
	return nil
}
