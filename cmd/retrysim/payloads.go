package main

import (
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/retrysim/retrysim/policies"
	"github.com/retrysim/retrysim/policies/payload"
	"github.com/retrysim/retrysim/simulator"
)

// payloadFlags are run's flags for the user's own payloads and headers.
type payloadFlags struct {
	payloads []string
	sets     []string
	headers  []string
}

const (
	payloadUsage = "a JSON body as the provider sends it, as [provider=]FILE or a directory of them, used as the template of every event (repeatable; ids and the event's time are made fresh per event; see docs/payloads.md)"
	setUsage     = "set a field of every event's body, as [provider:]path=value, e.g. data.object.customer=cus_123 (repeatable; the value is JSON when it is valid JSON, else a string)"
	headerUsage  = "add a header to every request, as 'Name: value' (repeatable), e.g. a staging gateway's token; a header the provider writes itself is refused"
)

// validatePayloads reads --payload, --set and --header into p: the bodies
// of each policy's events and the headers added to every request.
func (f *runFlags) validatePayloads(p *plan) []error {
	var errs []error
	var overrides []payload.Override
	for i, s := range f.sets {
		o, err := payload.ParseOverride(s)
		if err != nil {
			errs = append(errs, fmt.Errorf("--set #%d: %w", i+1, err))
			continue
		}
		if o.Provider != "" && !runsProvider(p.policies, o.Provider) {
			errs = append(errs, fmt.Errorf("--set %s: %s is not among the providers this run replays (%s)", s, o.Provider, strings.Join(policies.Names(p.policies), ", ")))
			continue
		}
		overrides = append(overrides, o)
	}
	paths := map[string][]string{} // by provider
	for _, s := range f.payloads {
		src := payload.ParseSource(s)
		switch {
		case src.Provider == "" && len(p.policies) > 1:
			errs = append(errs, fmt.Errorf("--payload %s: --provider names %d policies (%s): say whose payload it is, e.g. --payload %s=%s", s, len(p.policies), strings.Join(policies.Names(p.policies), ", "), p.policies[0].Provider, s))
			continue
		case src.Provider == "" && len(p.policies) == 1:
			src.Provider = p.policies[0].Provider
		case !runsProvider(p.policies, src.Provider):
			errs = append(errs, fmt.Errorf("--payload %s: %s is not among the providers this run replays (%s): add --provider %s", s, src.Provider, strings.Join(policies.Names(p.policies), ", "), src.Provider))
			continue
		}
		paths[src.Provider] = append(paths[src.Provider], src.Path)
	}
	if len(overrides) > 0 && len(p.policies) > 1 {
		for _, o := range overrides {
			if o.Provider == "" {
				errs = append(errs, fmt.Errorf("--set %s: --provider names %d policies (%s): say whose field it is, e.g. --set %s:%s", o, len(p.policies), strings.Join(policies.Names(p.policies), ", "), p.policies[0].Provider, o))
			}
		}
	}
	if len(errs) > 0 {
		return errs
	}
	p.payloads = map[string]simulator.Payloads{}
	for _, pol := range p.policies {
		wire := pol.Wire()
		var src simulator.Payloads
		var err error
		flag := "--payload"
		switch {
		case len(paths[pol.Provider]) > 0:
			var set *payload.Set
			set, err = payload.Load(wire, paths[pol.Provider], p.eventTypes[pol.Name], overrides)
			src = set
		case slices.ContainsFunc(overrides, func(o payload.Override) bool { return o.Provider == "" || o.Provider == pol.Provider }):
			var o *payload.Overridden
			o, err = payload.NewOverridden(wire, p.eventTypes[pol.Name], overrides)
			src, flag = o, "--set"
		default:
			continue
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("%s for %s: %w", flag, pol.Name, err))
			continue
		}
		p.payloads[pol.Name] = src
	}
	if len(f.headers) > 0 {
		p.header = http.Header{}
	}
	for i, s := range f.headers {
		name, value, err := payload.ParseHeader(s)
		if err != nil {
			errs = append(errs, fmt.Errorf("--header #%d: %w", i+1, err))
			continue
		}
		p.header.Add(name, value)
	}
	for _, pol := range p.policies {
		if err := simulator.CheckHeaders(pol.Wire(), p.header); err != nil {
			errs = append(errs, fmt.Errorf("--header: %w", err))
		}
	}
	return dedupErrors(errs)
}

// runsProvider says a run of pols replays provider's deliveries.
func runsProvider(pols []policies.Policy, provider string) bool {
	return slices.ContainsFunc(pols, func(p policies.Policy) bool { return p.Provider == provider })
}

// dedupErrors drops an error that says what an earlier one said (a header
// refused for each of several policies of one provider).
func dedupErrors(errs []error) []error {
	var out []error
	seen := map[string]bool{}
	for _, err := range errs {
		if !seen[err.Error()] {
			seen[err.Error()] = true
			out = append(out, err)
		}
	}
	if len(out) == 0 {
		return nil
	}
	return []error{errors.Join(out...)}
}
