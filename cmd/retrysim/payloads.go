package main

import (
	"fmt"
	"net/http"

	"github.com/retrysim/retrysim/policies/payload"
	"github.com/retrysim/retrysim/report/advice"
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
		errs[i] = advice.PayloadChoice(err)
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
	return advice.Distinct(errs)
}
