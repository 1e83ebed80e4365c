package policies

import (
	"fmt"
	"strings"
)

// OneTypeForManyError is a plain event type given for a run of several
// policies: an event type belongs to one provider. Pairs spell one
// provider=type choice per policy, Type for the policy whose wire format
// sends it and each other policy's default, as an example.
type OneTypeForManyError struct {
	Type     string
	Policies []string
	Pairs    []string
}

func (e *OneTypeForManyError) Error() string {
	return fmt.Sprintf("%s: %d policies run (%s), and an event type belongs to one provider: give one per provider, e.g. %s",
		e.Type, len(e.Policies), strings.Join(e.Policies, ", "), strings.Join(e.Pairs, ","))
}

// NotInRunError is a provider=type choice whose provider none of the run's
// Policies is.
type NotInRunError struct {
	Provider, Type string
	Policies       []string
}

func (e *NotInRunError) Error() string {
	return fmt.Sprintf("%s=%s: %s is not a provider of this run (%s)", e.Provider, e.Type, e.Provider, strings.Join(e.Policies, ", "))
}

// ChooseEventTypes reads the event types a user chose for a run of pols:
// one plain type (invoice.payment_succeeded) when the run replays one
// policy, or provider=type pairs (stripe=invoice.payment_succeeded,
// github=push), a provider being a policy name or a wire format's name
// (stripe covers stripe-test; a policy's own name, given too, wins). Each
// type must be one the policy's wire format sends (CheckEventType). The
// result maps policy names to the type to send; a policy missing from it
// sends its default. Every problem is returned; a plain type for several
// policies is a *OneTypeForManyError, a provider not in the run a
// *NotInRunError.
func ChooseEventTypes(given []string, pols []Policy) (map[string]string, []error) {
	out := map[string]string{}
	var errs []error
	var plain []string
	pairs := map[string]string{} // provider as given → type
	var order []string
	for _, g := range given {
		g = strings.TrimSpace(g)
		if g == "" {
			continue
		}
		prov, typ, ok := strings.Cut(g, "=")
		if !ok {
			plain = append(plain, g)
			continue
		}
		prov, typ = strings.ToLower(strings.TrimSpace(prov)), strings.TrimSpace(typ)
		switch {
		case prov == "" || typ == "":
			errs = append(errs, fmt.Errorf("%q: expected provider=type, e.g. stripe=invoice.payment_succeeded", g))
			continue
		case pairs[prov] != "":
			errs = append(errs, fmt.Errorf("%s is given twice (%s and %s)", prov, pairs[prov], typ))
			continue
		}
		pairs[prov] = typ
		order = append(order, prov)
	}
	switch {
	case len(plain) > 0 && len(pairs) > 0:
		return nil, append(errs, fmt.Errorf("%s names no provider: give every type as provider=type when you give one so", strings.Join(plain, ", ")))
	case len(plain) > 1:
		return nil, append(errs, fmt.Errorf("%s: one type only, or one per provider as provider=type", strings.Join(plain, ", ")))
	case len(plain) == 1 && len(pols) > 1:
		return nil, append(errs, &OneTypeForManyError{Type: plain[0], Policies: Names(pols), Pairs: examplePairs(pols, plain[0])})
	case len(plain) == 1 && len(pols) == 1:
		pairs[pols[0].Name] = plain[0]
		order = append(order, pols[0].Name)
	}
	for _, prov := range order {
		typ, matched := pairs[prov], false
		for _, p := range pols {
			if p.Name != prov && p.Provider != prov {
				continue
			}
			matched = true
			if _, set := out[p.Name]; set && prov != p.Name {
				continue // the policy's own name, given too, wins
			}
			if err := CheckEventType(p.Wire(), typ); err != nil {
				errs = append(errs, err)
				continue
			}
			out[p.Name] = typ
		}
		if !matched && len(pols) > 0 {
			errs = append(errs, &NotInRunError{Provider: prov, Type: typ, Policies: Names(pols)})
		}
	}
	if len(errs) > 0 {
		return nil, errs
	}
	return out, nil
}

// examplePairs spells a provider=type choice per policy of pols: typ for
// the policy whose wire format sends it, each other policy's default type.
func examplePairs(pols []Policy, typ string) []string {
	parts := make([]string, len(pols))
	for i, p := range pols {
		t := p.Wire().DefaultEventType()
		if CheckEventType(p.Wire(), typ) == nil {
			t = typ
		}
		parts[i] = p.Name + "=" + t
	}
	return parts
}
