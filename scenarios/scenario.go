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
	var a Action
	c := Context{Event: event, Attempt: attempt, At: at, Timeout: timeout}
	key := uint64(event)<<20 | uint64(attempt)
	for i := range s.Faults {
		f := &s.Faults[i]
		if !f.covers(&c) {
			continue
		}
		r := policies.Key(seed, key, uint64(i)+1)
		if f.Probability < 1 && r.Float64() >= f.Probability {
			continue
		}
		c.Rand = &r
		before := a
		f.Kind.Apply(&a, &c)
		if !sameAction(before, a) {
			a.Faults = append(a.Faults, f.Type)
		}
	}
	return a
}

func sameAction(x, y Action) bool {
	return x.Drop == y.Drop && x.EdgeStatus == y.EdgeStatus && x.LoseResponse == y.LoseResponse && x.Latency == y.Latency
}
