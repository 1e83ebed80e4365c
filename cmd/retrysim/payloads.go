package main

import (
	"errors"
	"fmt"
	"net/http"
	"strings"

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
// of each policy's events (payload.ForRun) and the headers added to every
// request.
func (f *runFlags) validatePayloads(p *plan) []error {
	var errs []error
	p.payloads, errs = payload.ForRun(p.policies, p.eventTypes, f.payloads, f.sets)
	for i, err := range errs {
		errs[i] = payloadChoiceError(err)
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

// payloadChoiceError says a problem with a --payload or --set value in the
// flags' words.
func payloadChoiceError(err error) error {
	var ce *payload.ChoiceError
	if !errors.As(err, &ce) {
		return err
	}
	flag, sep, what := "--payload", "=", "payload"
	if ce.Given == payload.GivenOverride {
		flag, sep, what = "--set", ":", "field"
	}
	run := strings.Join(ce.Policies, ", ")
	switch ce.Problem {
	case payload.NotInRun:
		if ce.Given == payload.GivenOverride {
			return fmt.Errorf("%s %s: %s is not among the providers this run replays (%s)", flag, ce.Value, ce.Provider, run)
		}
		return fmt.Errorf("%s %s: %s is not among the providers this run replays (%s): add --provider %s", flag, ce.Value, ce.Provider, run, ce.Provider)
	case payload.Whose:
		return fmt.Errorf("%s %s: --provider names %d policies (%s): say whose %s it is, e.g. %s %s%s%s", flag, ce.Value, len(ce.Policies), run, what, flag, ce.Provider, sep, ce.Value)
	case payload.NotLoaded:
		return fmt.Errorf("%s for %s: %w", flag, ce.Policy, ce.Err)
	}
	return fmt.Errorf("%s #%d: %w", flag, ce.Index, ce.Err)
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
