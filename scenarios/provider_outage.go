package scenarios

import (
	"fmt"

	"github.com/retrysim/retrysim/policies"
)

// providerOutage: the provider itself is down for a window of virtual time,
// measured from the start of the run; your handler is fine. What becomes of
// the deliveries due in the window is the provider's choice, as backlog
// says:
//
//   - lost: they are never sent, and not retried: the events are gone
//     (Slack's Events API, 2025-02-26: the backlog was not replayed);
//
//   - burst: they are held and all sent the moment the window ends, at
//     once (a provider that drains its backlog after its own outage).
//
//     type: provider-outage
//     start: 10m
//     duration: 2h
//     backlog: lost
type providerOutage struct {
	Start    policies.Duration `yaml:"start"`
	Duration policies.Duration `yaml:"duration"`
	Backlog  string            `yaml:"backlog"`
}

func init() { Register("provider-outage", func() Kind { return &providerOutage{} }) }

func (o *providerOutage) Apply(a *Action, c *Context) {
	from, to := o.Start.D(), o.Start.D()+o.Duration.D()
	if c.Held && c.At == to && o.Backlog == "burst" {
		a.Late = true // this outage held it back
		return
	}
	if c.At < from || c.At >= to {
		return
	}
	switch o.Backlog {
	case "lost":
		a.ProviderDrop = true
	case "burst":
		a.Hold = max(a.Hold, to-c.At)
	}
}

func (o *providerOutage) Validate() []error {
	var errs []error
	if o.Duration <= 0 {
		errs = append(errs, fmt.Errorf("duration: must be positive, got %s", o.Duration))
	}
	if o.Start < 0 {
		errs = append(errs, fmt.Errorf("start: must not be negative, got %s", o.Start))
	}
	if o.Backlog != "lost" && o.Backlog != "burst" {
		errs = append(errs, fmt.Errorf("backlog: %q is not lost or burst (what the provider does with the deliveries due during its outage)", o.Backlog))
	}
	return errs
}
