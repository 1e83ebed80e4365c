package main

import (
	"fmt"
	"strings"

	"github.com/retrysim/retrysim/policies"
)

// eventTypes reads --event-type for the policies of a run: one plain type
// (invoice.payment_succeeded) when the run replays one policy, or
// provider=type pairs (stripe=invoice.payment_succeeded,github=push), a
// provider being a policy name or a wire format's name (stripe covers
// stripe-test). Each type must be one the policy's wire format sends. The
// result maps policy names to the type to send; a policy missing from it
// sends its default.
func eventTypes(given []string, pols []policies.Policy) (map[string]string, []error) {
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
			errs = append(errs, fmt.Errorf("--event-type: %q: expected provider=type, e.g. stripe=invoice.payment_succeeded", g))
			continue
		case pairs[prov] != "":
			errs = append(errs, fmt.Errorf("--event-type: %s is given twice (%s and %s)", prov, pairs[prov], typ))
			continue
		}
		pairs[prov] = typ
		order = append(order, prov)
	}
	switch {
	case len(plain) > 0 && len(pairs) > 0:
		return nil, append(errs, fmt.Errorf("--event-type: %s names no provider: give every type as provider=type when you give one so", strings.Join(plain, ", ")))
	case len(plain) > 1:
		return nil, append(errs, fmt.Errorf("--event-type: %s: one type only, or one per provider as provider=type", strings.Join(plain, ", ")))
	case len(plain) == 1 && len(pols) > 1:
		return nil, append(errs, fmt.Errorf("--event-type %s: --provider names %d policies (%s), and an event type belongs to one provider: give one per provider, e.g. %s",
			plain[0], len(pols), strings.Join(policyNames(pols), ", "), examplePairs(pols, plain[0])))
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
			if err := policies.CheckEventType(p.Wire(), typ); err != nil {
				errs = append(errs, fmt.Errorf("--event-type: %w", err))
				continue
			}
			out[p.Name] = typ
		}
		if !matched && len(pols) > 0 {
			errs = append(errs, fmt.Errorf("--event-type %s=%s: %s is not a provider of this run (--provider: %s)", prov, typ, prov, strings.Join(policyNames(pols), ", ")))
		}
	}
	if len(errs) > 0 {
		return nil, errs
	}
	return out, nil
}

func policyNames(pols []policies.Policy) []string {
	names := make([]string, len(pols))
	for i, p := range pols {
		names[i] = p.Name
	}
	return names
}

// examplePairs spells a per-provider --event-type for pols: typ for the
// policy whose wire format sends it, each other policy's default type.
func examplePairs(pols []policies.Policy, typ string) string {
	parts := make([]string, len(pols))
	for i, p := range pols {
		t := p.Wire().DefaultEventType()
		if policies.CheckEventType(p.Wire(), typ) == nil {
			t = typ
		}
		parts[i] = p.Name + "=" + t
	}
	return "--event-type " + strings.Join(parts, ",")
}

// checkURLOverrides refuses, naming flag (--url) and each bad key, connection
// overrides in the URL fragment that a policy reading them (Twilio) cannot
// take, before anything is printed or sent.
func checkURLOverrides(flag, url string, pols []policies.Policy) []error {
	if url == "" {
		return nil
	}
	for _, p := range pols {
		_, err := p.WithURLOverrides(url)
		if err == nil {
			continue
		}
		var errs []error
		if j, ok := err.(interface{ Unwrap() []error }); ok {
			for _, e := range j.Unwrap() {
				errs = append(errs, fmt.Errorf("%s: %s: %w", flag, p.Name, e))
			}
			return errs
		}
		return []error{fmt.Errorf("%s: %s: %w", flag, p.Name, err)}
	}
	return nil
}
