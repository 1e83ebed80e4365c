// Package scenarios is retrysim's fault model: the ways real deliveries go
// wrong between a provider and a handler.
//
// A Scenario is a named list of faults. Each Fault is an envelope (type,
// probability, and where it applies: attempt numbers, a virtual-time window,
// every Nth event) around a small registered Kind that holds the type's
// parameters and changes the Action the engine takes. Every random choice is
// keyed by (seed, event, attempt, fault), so a scenario decides the same way
// at any concurrency. Faults compose: each one that applies changes the
// same Action, in scenario order.
//
// Two kinds act on the run rather than on one attempt: restart names the
// virtual moments at which the handler process is killed and started again
// (Restarts), and manual-redelivery adds a resend by hand after an event's
// schedule ended (Redelivery).
package scenarios

import (
	"cmp"
	"reflect"
	"slices"
	"time"

	"github.com/retrysim/retrysim/policies"
)

// Scenario is a named list of faults.
type Scenario struct {
	Name        string
	Description string
	Faults      []Fault
	// Parts names the scenarios a composed one is made of, in order
	// (see Compose); empty for a scenario of its own.
	Parts []string

	source []byte
}

// YAML returns the scenario as it was written, to copy and edit; nil for a
// Scenario built in Go.
func (s *Scenario) YAML() []byte { return s.source }

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

	// key, when keyed, keys the fault's random choices in place of its
	// index: a part of a composed scenario keeps its own (see Compose).
	key   uint64
	keyed bool
}

// rollKey is what keys the fault's random choices: its index in the
// scenario, or the key Compose gave it.
func (f *Fault) rollKey(index int) uint64 {
	if f.keyed {
		return f.key
	}
	return uint64(index)
}

// covers reports whether the envelope's conditions hold for c.
func (f *Fault) covers(c *Context) bool {
	if f.Every > 1 && c.Event%f.Every != 0 {
		return false
	}
	if f.Until != 0 && (c.At < f.From || c.At >= f.Until) {
		return false
	}
	if len(f.Attempts) > 0 && !slices.Contains(f.Attempts, c.Attempt) {
		return false
	}
	return true
}

// roll reports whether the fault applies to c, after the envelope's
// conditions and its probability, and returns the fault's random source for
// c. index is the fault's place in the scenario.
func (f *Fault) roll(seed uint64, index int, c *Context) (policies.Rand, bool) {
	r := policies.Key(seed, uint64(c.Event)<<20|uint64(c.Attempt), f.rollKey(index)+1)
	if !f.covers(c) {
		return r, false
	}
	if f.Probability < 1 && r.Float64() >= f.Probability {
		return r, false
	}
	return r, true
}

// Decide returns the action for one attempt. c names the attempt; its Rand
// is ignored (each fault gets its own). The result depends only on seed and
// c.
func (s *Scenario) Decide(seed uint64, c Context) Action {
	return *s.Decider().Decide(seed, c)
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

// readsNext is implemented by the kinds of this package that read
// Context.Next.
type readsNext interface{ readsNext() }

// ReadsNext says whether deciding an attempt may read its Context's Next:
// whether a fault is of a kind that does, or of a kind registered outside
// this package, which may. Making Next costs the engine more than the rest
// of the Context, for every attempt, and most scenarios never look.
func (s *Scenario) ReadsNext() bool {
	for i := range s.Faults {
		k := s.Faults[i].Kind
		if _, ok := k.(readsNext); ok {
			return true
		}
		t := reflect.TypeOf(k)
		for t != nil && t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		if t == nil || t.PkgPath() != ownPkg {
			return true
		}
	}
	return false
}

// ownPkg is this package's import path.
var ownPkg = reflect.TypeFor[Scenario]().PkgPath()

// Decide returns the action for one attempt, as Scenario.Decide does. The
// Action is the Decider's own: it is valid until the next call, and must not
// be kept or changed.
func (d *Decider) Decide(seed uint64, c Context) *Action {
	d.c = c
	return d.DecideContext(seed)
}

// Context is the Decider's own Context, which DecideContext decides on: a
// caller that makes a Context for every attempt fills this one in place
// (all of it: it holds the last attempt's) rather than passing one by
// value, which copies it twice on the way, a tenth of deciding.
func (d *Decider) Context() *Context { return &d.c }

// DecideContext is Decide for the Context that Context returns, as the
// caller filled it; its Rand is set as each fault sees it.
func (d *Decider) DecideContext(seed uint64) *Action {
	a := &d.a
	*a = Action{Faults: a.Faults[:0]}
	for i := range d.s.Faults {
		f := &d.s.Faults[i]
		r, ok := f.roll(seed, i, &d.c)
		if !ok {
			continue
		}
		d.r = r
		d.c.Rand = &d.r
		before := a.Effect
		f.Kind.Apply(a, &d.c)
		if a.Effect != before {
			a.Faults = append(a.Faults, f.Type)
		}
	}
	return a
}

// timed is implemented by kinds that act at moments of virtual time.
type timed interface {
	times(from, until time.Duration) []time.Duration
}

// Restarts returns the moments, measured from the start of the run, at which
// the scenario restarts the handler, sorted and without repeats.
func (s *Scenario) Restarts() []time.Duration {
	var out []time.Duration
	for i := range s.Faults {
		if t, ok := s.Faults[i].Kind.(timed); ok {
			out = append(out, t.times(s.Faults[i].From, s.Faults[i].Until)...)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// Window is a stretch of virtual time, measured from the start of the run.
type Window struct{ From, To time.Duration }

// windowed is implemented by kinds that make the handler unreachable for
// one window of virtual time.
type windowed interface {
	window() Window
}

// Outages returns the windows, measured from the start of the run, in
// which the scenario makes the handler unreachable, in order of start: the
// whole of each, whether or not an attempt fell in it.
func (s *Scenario) Outages() []Window {
	var out []Window
	for i := range s.Faults {
		if w, ok := s.Faults[i].Kind.(windowed); ok {
			out = append(out, w.window())
		}
	}
	slices.SortFunc(out, func(a, b Window) int { return cmp.Compare(a.From, b.From) })
	return out
}

// redeliverer is implemented by kinds that resend an event by hand after
// its schedule ended.
type redeliverer interface {
	redeliverAfter() time.Duration
}

// Redelivery reports whether someone resends the event by hand once its
// automatic schedule has ended, and how long after its last attempt. c names
// the manual attempt (Attempt is one past the last automatic one; At and
// Since are the last automatic attempt's). When several faults resend, the
// earliest wins.
func (s *Scenario) Redelivery(seed uint64, c Context) (time.Duration, bool) {
	var after time.Duration
	found := false
	for i := range s.Faults {
		f := &s.Faults[i]
		rd, ok := f.Kind.(redeliverer)
		if !ok {
			continue
		}
		if _, ok := f.roll(seed, i, &c); !ok {
			continue
		}
		if d := rd.redeliverAfter(); !found || d < after {
			after, found = d, true
		}
	}
	return after, found
}

// EarliestRedelivery is the shortest wait after an event's last attempt
// before a manual redelivery, over the scenario's faults; false when the
// scenario resends nothing. The engine's lookahead needs it: no attempt can
// cause another sooner than this.
func (s *Scenario) EarliestRedelivery() (time.Duration, bool) {
	var least time.Duration
	found := false
	for i := range s.Faults {
		if rd, ok := s.Faults[i].Kind.(redeliverer); ok {
			if d := rd.redeliverAfter(); !found || d < least {
				least, found = d, true
			}
		}
	}
	return least, found
}
