package scenarios

import (
	"errors"

	"github.com/retrysim/retrysim/policies"
)

// outage: the handler is unreachable for a window of virtual time, measured
// from the start of the run. Every attempt in the window fails to connect.
//
//	start: 15m
//	duration: 6h
type outage struct {
	Start    policies.Duration `yaml:"start"`
	Duration policies.Duration `yaml:"duration"`
}

func init() { Register("outage", func() Kind { return &outage{} }) }

func (o *outage) Apply(a *Action, c *Context) {
	if c.At >= o.Start.D() && c.At < o.Start.D()+o.Duration.D() {
		a.Drop = true
	}
}

func (o *outage) Validate() []error {
	if o.Duration <= 0 {
		return []error{errors.New("duration must be positive")}
	}
	return nil
}
