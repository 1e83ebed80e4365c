package scenarios

import (
	"errors"
	"math"
	"time"

	"github.com/retrysim/retrysim/policies"
)

// latency adds virtual time to the handler's answer. Past the provider's
// timeout the attempt becomes a timeout after the handler did the work.
//
//	latency: 40s          # a fixed delay
//	jitter: 10s           # plus or minus up to 10s, uniformly
//	over_timeout: 5s      # instead of latency: the provider's timeout + 5s
type latency struct {
	Latency     policies.Duration `yaml:"latency"`
	Jitter      policies.Duration `yaml:"jitter"`
	OverTimeout policies.Duration `yaml:"over_timeout"`
}

func init() { Register("latency", func() Kind { return &latency{} }) }

func (l *latency) Apply(a *Action, c *Context) {
	d := l.Latency.D()
	if l.OverTimeout != 0 {
		d = c.Timeout + l.OverTimeout.D()
	}
	if l.Jitter != 0 {
		d += time.Duration((2*c.Rand.Float64() - 1) * float64(l.Jitter.D()))
	}
	// Saturate: latencies from several faults must not wrap around.
	a.Latency += min(max(d, 0), math.MaxInt64-a.Latency)
}

func (l *latency) Validate() []error {
	switch {
	case l.Latency == 0 && l.OverTimeout == 0:
		return []error{errors.New("give latency or over_timeout")}
	case l.Latency != 0 && l.OverTimeout != 0:
		return []error{errors.New("give latency or over_timeout, not both")}
	}
	return nil
}
