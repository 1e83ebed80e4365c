package scenarios

import (
	"fmt"

	"github.com/retrysim/retrysim/policies"
)

// outage: the handler is unreachable for a window of virtual time, measured
// from the start of the run. Every attempt in the window fails to connect.
//
//	type: outage
//	start: 15m
//	duration: 6h
type outage struct {
	Start    policies.Duration `yaml:"start"`
	Duration policies.Duration `yaml:"duration"`
}

func init() { Register("outage", func() Kind { return &outage{} }) }

func (o *outage) Apply(a *Action, c *Context) {
	if w := o.window(); c.At >= w.From && c.At < w.To {
		a.Outage = a.Outage || !a.Drop // an attempt already dropped met no outage
		a.Drop = true
	}
}

func (o *outage) window() Window {
	return Window{From: o.Start.D(), To: o.Start.D() + o.Duration.D()}
}

func (o *outage) Validate() []error {
	var errs []error
	if o.Duration <= 0 {
		errs = append(errs, fmt.Errorf("duration: must be positive, got %s", o.Duration))
	}
	if o.Start < 0 {
		errs = append(errs, fmt.Errorf("start: must not be negative, got %s", o.Start))
	}
	return errs
}
