package simulator

import (
	"time"

	"github.com/retrysim/retrysim/policies"
)

// runRecord is the record that opens a run: the policy, scenario and target
// every later record of the run is read against.
func (e *engine) runRecord() Record {
	p := &e.cfg.Policy
	r := e.base
	r.Kind = KindRun
	r.RunID, r.DryRun = e.cfg.RunID, e.cfg.DryRun
	r.Target = e.cfg.TargetName
	r.DefaultScenario = e.cfg.DefaultScenario
	r.Events = e.cfg.Events
	if e.ten.n > 1 {
		r.Tenants = e.ten.n
		r.Shard, r.Shards = e.ten.shard.Index, e.ten.shard.Of
	}
	r.Summary = p.Summary
	r.DedupField = e.wire.DedupField()
	if f := p.FanOut; f != nil {
		r.DedupDeliveryField = f.DeliveryKey
	}
	r.EventType = e.eventTypes()
	for _, w := range e.cfg.Scenario.Outages() {
		r.Outages = append(r.Outages, [2]time.Duration{w.From, w.To})
	}
	if s, ok := policies.SchemeOf(e.wire); ok {
		r.AdvisedTolerance = s.AdvisedTolerance
	}
	r.MaxAttempt = p.MaxAttempts()
	r.Window = p.Window()
	r.Timeout = p.Timeout.D()
	r.ManualRedelivery = p.ManualRedelivery.D()
	r.Schedule = make([]time.Duration, p.MaxAttempts())
	for n := range r.Schedule {
		r.Schedule[n] = p.Offset(n + 1)
	}
	if p.Disable != nil {
		r.DisableN = p.Disable.ConsecutiveFailures
		r.DisableWithin = p.Disable.Within.D()
		r.DisableRule = p.Disable.String()
		r.DisableRate, r.DisableMinAttempts = p.Disable.FailureRate, p.Disable.MinAttempts
		r.DisableFailingFor = p.Disable.FailingFor.D()
	}
	start := e.cfg.Start
	r.Start = &start
	wall := e.cfg.WallClock.Now().Round(0) // no monotonic reading: it is a fact to write down
	r.WallStart = &wall
	r.Time = start
	return r
}

// recordAttempt emits the record of one request of an attempt, at its
// virtual time at; copyIndex is 1
// for the second request of a duplicated attempt; manual says it was a
// manual redelivery.
func (e *engine) recordAttempt(d *due, at time.Time, st eventRef, o *outcome, signal string, copyIndex int, manual bool) error {
	// A Record is large (952 bytes): zeroing one and copying it to the
	// sink for each attempt was a fifth of a model run. e.att holds only
	// attempts, and every field an attempt has is set here (the base's
	// ones once a run, the shared ones, Answer and AttemptFacts; tests
	// check), so nothing of the last attempt is left.
	r := &e.att
	if !e.attShared {
		// The same for every attempt of the run, and the sink may not
		// change them: set at the first (every time in a race-detector
		// build, whose sink spoils the record it lent).
		b := &e.base
		r.Kind, r.Provider, r.Policy, r.Scenario, r.Seed = KindAttempt, b.Provider, b.Policy, b.Scenario, b.Seed
		e.attShared = !raceBuild
	}
	id, object := e.names(d.event(), st)
	r.EventID, r.Seq, r.Attempt, r.Time = id, d.event(), d.n(), at
	r.At, r.Fault, r.Error, r.Tenant = d.offset()-e.first(d.event(), st), o.fault, o.err, e.tenantLabel(d.event())
	// Field by field: a struct literal is built aside and then copied in.
	a := &r.Answer
	a.Status, a.HandlerStatus, a.Reached = o.status, o.handlerStatus, o.reached
	a.Latency = o.latency.Truncate(time.Microsecond)
	f := &r.AttemptFacts
	f.Outcome, f.AddedLatency = o.outcome, o.added.Truncate(time.Microsecond)
	f.Object, f.Copy, f.Subscription, f.Manual = object, copyIndex, o.sub, manual
	f.Outage, f.TLS, f.Signal, f.RedirectRefused, f.RedirectUnreached = o.outage, o.tls, signal, o.redirectRefused, o.redirectUnreached
	if err := e.sink(r); err != nil {
		return err
	}
	e.noteAttempt(d.event(), o.handlerStatus)
	e.res.Attempts++
	if o.reached {
		e.res.Arrivals++
		if o.handlerStatus == 0 {
			e.noteCutOff() // the handler may still be at work on it
		}
	}
	return nil
}
