package scenarios

import (
	"fmt"

	"github.com/retrysim/retrysim/policies"
)

// providerLatency: the provider's own delivery pipeline is slow for a
// window of virtual time: an event's first attempt leaves the provider
// a delay after the event happened, drawn per event between min and max.
// Events arrive late, and, as each waits a different time, out of order
// (GitHub, 2026-03-18: average delivery latency from about 5 s to about
// 160 s). Retries are not delayed.
//
//	type: provider-latency
//	start: 0s
//	duration: 2h
//	min: 5s
//	max: 160s
type providerLatency struct {
	Start    policies.Duration `yaml:"start"`
	Duration policies.Duration `yaml:"duration"`
	Min      policies.Duration `yaml:"min"`
	Max      policies.Duration `yaml:"max"`
}

func init() { Register("provider-latency", func() Kind { return &providerLatency{} }) }

func (l *providerLatency) Apply(a *Action, c *Context) {
	from, to := l.Start.D(), l.Start.D()+l.Duration.D()
	if c.Attempt != 1 || c.At < from {
		return
	}
	if c.Held {
		a.Late = true // held back by this fault, or another: late now
		return
	}
	if c.At >= to {
		return
	}
	d := l.Min.D() + durationOf(c.Rand.Float64()*float64(l.Max.D()-l.Min.D()))
	a.Hold = max(a.Hold, d)
}

func (l *providerLatency) Validate() []error {
	var errs []error
	if l.Duration <= 0 {
		errs = append(errs, fmt.Errorf("duration: must be positive, got %s", l.Duration))
	}
	if l.Start < 0 {
		errs = append(errs, fmt.Errorf("start: must not be negative, got %s", l.Start))
	}
	if l.Min < 0 || l.Max <= l.Min {
		errs = append(errs, fmt.Errorf("max: %s must be above min (%s), and min not negative", l.Max, l.Min))
	}
	return errs
}
