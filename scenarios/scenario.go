// Package scenarios is retrysim's fault model: the ways a real delivery goes
// wrong between a provider and a handler.
//
// A Scenario is a named list of faults. Each Fault is an envelope (type,
// probability, and where it applies: attempt numbers, a virtual-time window,
// every Nth event) around a small registered Kind that holds the type's
// parameters and changes the Action the engine takes. Every random choice is
// keyed by (seed, event, attempt, fault), so a scenario decides the same way
// at any concurrency.
package scenarios

import (
	"time"

	"github.com/retrysim/retrysim/policies"
)

// Scenario is a named list of faults.
type Scenario struct {
	Name        string
	Description string
	Faults      []Fault
}

// Fault is one fault in its envelope.
type Fault struct {
	// Type is the registered fault type.
	Type string
	// Probability is the chance the fault applies to an attempt it covers.
	Probability float64
	// Attempts, when not empty, limits the fault to these attempt numbers.
	Attempts []int
	// From and Until, when Until is not 0, limit the fault to attempts whose
	// virtual time since the start of the run is in [From, Until).
	From, Until time.Duration
	// Every, when above 1, limits the fault to every Nth event (events 0,
	// N, 2N, ...).
	Every int
	// Kind is the type's parameters and behaviour.
	Kind Kind
}

// covers reports whether the envelope's conditions hold for c.
func (f *Fault) covers(c *Context) bool {
	if f.Every > 1 && c.Event%f.Every != 0 {
		return false
	}
	if f.Until != 0 && (c.At < f.From || c.At >= f.Until) {
		return false
	}
	if len(f.Attempts) > 0 {
		found := false
		for _, n := range f.Attempts {
			if n == c.Attempt {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// Decide returns the action for attempt (1-based) of event (0-based) at
// virtual time at since the start of the run. The result depends only on
// its arguments.
func (s *Scenario) Decide(seed uint64, event, attempt int, at, timeout time.Duration) Action {
	return *s.Decider().Decide(seed, event, attempt, at, timeout)
}

// Decider returns a Decider for s.
func (s *Scenario) Decider() *Decider { return &Decider{s: s} }

// Decider decides attempt after attempt for one Scenario, exactly as
// Scenario.Decide does, reusing its storage: once warm it allocates nothing.
// It is not safe for concurrent use; give each goroutine its own.
type Decider struct {
	s *Scenario
	a Action
	c Context
	r policies.Rand
}

// Decide returns the action for attempt (1-based) of event (0-based) at
// virtual time at since the start of the run. The Action is the Decider's
// own: it is valid until the next call, and must not be kept or changed.
func (d *Decider) Decide(seed uint64, event, attempt int, at, timeout time.Duration) *Action {
	a := &d.a
	*a = Action{Faults: a.Faults[:0]}
	d.c = Context{Event: event, Attempt: attempt, At: at, Timeout: timeout, Rand: &d.r}
	key := uint64(event)<<20 | uint64(attempt)
	for i := range d.s.Faults {
		f := &d.s.Faults[i]
		if !f.covers(&d.c) {
			continue
		}
		d.r = policies.Key(seed, key, uint64(i)+1)
		if f.Probability < 1 && d.r.Float64() >= f.Probability {
			continue
		}
		before := *a
		f.Kind.Apply(a, &d.c)
		if !sameAction(&before, a) {
			a.Faults = append(a.Faults, f.Type)
		}
	}
	return a
}

func sameAction(x, y *Action) bool {
	return x.Drop == y.Drop && x.EdgeStatus == y.EdgeStatus && x.LoseResponse == y.LoseResponse && x.Latency == y.Latency
}
