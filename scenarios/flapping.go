package scenarios

import (
	"fmt"

	"github.com/retrysim/retrysim/policies"
)

// flapping: the handler goes down and comes back in a rhythm (a crash loop,
// a health check that keeps failing over): from start on it is down for
// `down`, then up for `up`, again and again. Attempts while it is down fail
// to connect.
//
//	type: flapping
//	start: 0s     # optional
//	down: 5m
//	up: 25m
type flapping struct {
	Start policies.Duration `yaml:"start"`
	Down  policies.Duration `yaml:"down"`
	Up    policies.Duration `yaml:"up"`
}

func init() { Register("flapping", func() Kind { return &flapping{} }) }

func (f *flapping) Apply(a *Action, c *Context) {
	if c.At < f.Start.D() {
		return
	}
	if (c.At-f.Start.D())%(f.Down.D()+f.Up.D()) < f.Down.D() {
		a.Drop = true
	}
}

func (f *flapping) Validate() []error {
	var errs []error
	if f.Down <= 0 {
		errs = append(errs, fmt.Errorf("down: must be positive, got %s", f.Down))
	}
	if f.Up <= 0 {
		errs = append(errs, fmt.Errorf("up: must be positive, got %s", f.Up))
	}
	if f.Start < 0 {
		errs = append(errs, fmt.Errorf("start: must not be negative, got %s", f.Start))
	}
	return errs
}
