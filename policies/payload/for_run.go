package payload

import (
	"fmt"
	"slices"
	"strings"

	"github.com/retrysim/retrysim/policies"
)

// Maker makes the bodies of a policy's events: a *Set of the user's
// payload files, or an *Overridden of the wire's own bodies. The engine
// takes it as its Config.Payloads.
type Maker interface {
	// Type is the event type of event seq, "" for the run's.
	Type(seq int) string
	// Body makes event ev's body, in a run of seed, and its content type.
	Body(ev policies.Event, seed uint64) ([]byte, string)
}

var (
	_ Maker = (*Set)(nil)
	_ Maker = (*Overridden)(nil)
)

// Given says which of a user's values a ChoiceError is about.
type Given int

// The values ForRun reads.
const (
	// GivenSource is a payload file or directory, [provider=]PATH.
	GivenSource Given = iota
	// GivenOverride is a field's override, [provider:]path=value.
	GivenOverride
)

// Problem is what is wrong with a value ForRun read.
type Problem int

// The problems of a ChoiceError.
const (
	// Unreadable: the value cannot be read (Err says why; Index is its
	// place among its kind, from 1).
	Unreadable Problem = iota
	// NotInRun: the value names a provider (Provider) none of the run's
	// Policies is.
	NotInRun
	// Whose: the value names no provider, and the run has several
	// Policies; Provider is the first policy's, for an example.
	Whose
	// NotLoaded: the payloads or overrides for Policy cannot be made
	// (Err says why).
	NotLoaded
)

// ChoiceError is a problem with a payload source or override a user gave
// for a run, with the figures a command words it from.
type ChoiceError struct {
	Given   Given
	Problem Problem
	// Value is the value as given (an override as it prints).
	Value string
	// Index is the value's place among those of its kind, from 1.
	Index    int
	Provider string
	// Policy is the policy whose bodies could not be made (NotLoaded).
	Policy string
	// Policies are the run's policies' names.
	Policies []string
	Err      error
}

func (e *ChoiceError) Error() string {
	switch e.Problem {
	case NotInRun:
		return fmt.Sprintf("%s: %s is not among the providers this run replays (%s)", e.Value, e.Provider, strings.Join(e.Policies, ", "))
	case Whose:
		return fmt.Sprintf("%s: the run replays %d policies (%s): say whose it is", e.Value, len(e.Policies), strings.Join(e.Policies, ", "))
	case NotLoaded:
		return fmt.Sprintf("for %s: %v", e.Policy, e.Err)
	}
	return fmt.Sprintf("#%d: %v", e.Index, e.Err)
}

func (e *ChoiceError) Unwrap() error { return e.Err }

// ForRun reads the payload sources ([provider=]PATH) and overrides
// ([provider:]path=value) a user gave for a run of pols, each policy's
// events being of eventTypes[policy name], and makes, by policy name, what
// makes each policy's bodies: its payload files with the overrides that
// apply to it (Load), or its wire's own bodies with them (NewOverridden),
// or nothing (the wire's own bodies as they are). A value that names no
// provider is for the only policy of the run. Every problem is returned,
// each a *ChoiceError: first the values as read, and only when they all
// are, the payloads made from them.
func ForRun(pols []policies.Policy, eventTypes map[string]string, sources, overrides []string) (map[string]Maker, []error) {
	var errs []error
	names := policies.Names(pols)
	runs := func(provider string) bool {
		return slices.ContainsFunc(pols, func(p policies.Policy) bool { return p.Provider == provider })
	}
	var ovs []Override
	for i, s := range overrides {
		o, err := ParseOverride(s)
		switch {
		case err != nil:
			errs = append(errs, &ChoiceError{Given: GivenOverride, Problem: Unreadable, Value: s, Index: i + 1, Policies: names, Err: err})
			continue
		case o.Provider != "" && !runs(o.Provider):
			errs = append(errs, &ChoiceError{Given: GivenOverride, Problem: NotInRun, Value: s, Index: i + 1, Provider: o.Provider, Policies: names})
			continue
		}
		ovs = append(ovs, o)
	}
	paths := map[string][]string{} // by provider
	for i, s := range sources {
		src := ParseSource(s)
		switch {
		case src.Provider == "" && len(pols) > 1:
			errs = append(errs, &ChoiceError{Given: GivenSource, Problem: Whose, Value: s, Index: i + 1, Provider: pols[0].Provider, Policies: names})
			continue
		case src.Provider == "" && len(pols) == 1:
			src.Provider = pols[0].Provider
		case !runs(src.Provider):
			errs = append(errs, &ChoiceError{Given: GivenSource, Problem: NotInRun, Value: s, Index: i + 1, Provider: src.Provider, Policies: names})
			continue
		}
		paths[src.Provider] = append(paths[src.Provider], src.Path)
	}
	if len(ovs) > 0 && len(pols) > 1 {
		for _, o := range ovs {
			if o.Provider == "" {
				errs = append(errs, &ChoiceError{Given: GivenOverride, Problem: Whose, Value: o.String(), Provider: pols[0].Provider, Policies: names})
			}
		}
	}
	if len(errs) > 0 {
		return nil, errs
	}
	out := map[string]Maker{}
	for _, pol := range pols {
		var m Maker
		var err error
		given := GivenSource
		switch {
		case len(paths[pol.Provider]) > 0:
			var set *Set
			set, err = Load(pol.Wire(), paths[pol.Provider], eventTypes[pol.Name], ovs)
			m = set
		case slices.ContainsFunc(ovs, func(o Override) bool { return o.Provider == "" || o.Provider == pol.Provider }):
			var o *Overridden
			o, err = NewOverridden(pol.Wire(), eventTypes[pol.Name], ovs)
			m, given = o, GivenOverride
		default:
			continue
		}
		if err != nil {
			errs = append(errs, &ChoiceError{Given: given, Problem: NotLoaded, Policy: pol.Name, Policies: names, Err: err})
			continue
		}
		out[pol.Name] = m
	}
	return out, errs
}
