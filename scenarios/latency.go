package scenarios

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/retrysim/retrysim/policies"
)

// latency adds virtual latency to the handler's answer; it never sleeps.
// Past the provider's timeout the attempt becomes a timeout after the
// handler did the work. The latency is fixed or drawn, per attempt, from a
// distribution:
//
//	latency: 40s                               # fixed (distribution: fixed)
//	latency: 2s
//	jitter: 1s                                 # fixed, plus or minus up to 1s
//	over_timeout: 5s                           # fixed: the provider's timeout + 5s
//	distribution: uniform,   min: 1s, max: 10s
//	distribution: normal,    latency: 2s, stddev: 500ms   # mean 2s, never below 0
//	distribution: lognormal, latency: 300ms, sigma: 1.2   # median 300ms, a heavy tail
//	distribution: pareto,    min: 200ms, alpha: 1.5       # at least 200ms, heavier still
//
// max caps any distribution.
type latency struct {
	Distribution string            `yaml:"distribution"`
	Latency      policies.Duration `yaml:"latency"`
	Jitter       policies.Duration `yaml:"jitter"`
	OverTimeout  policies.Duration `yaml:"over_timeout"`
	Min          policies.Duration `yaml:"min"`
	Max          policies.Duration `yaml:"max"`
	StdDev       policies.Duration `yaml:"stddev"`
	Sigma        float64           `yaml:"sigma"`
	Alpha        float64           `yaml:"alpha"`
}

func init() { Register("latency", func() Kind { return &latency{} }) }

// distributions lists each distribution with the keys it uses (besides
// distribution and max).
var distributions = map[string][]string{
	"fixed":     {"latency", "jitter", "over_timeout"},
	"uniform":   {"min"},
	"normal":    {"latency", "stddev"},
	"lognormal": {"latency", "sigma"},
	"pareto":    {"min", "alpha"},
}

func (l *latency) dist() string {
	if l.Distribution == "" {
		return "fixed"
	}
	return l.Distribution
}

func (l *latency) Apply(a *Action, c *Context) {
	var d time.Duration
	switch l.dist() {
	case "fixed":
		ns := float64(l.Latency.D())
		if l.OverTimeout != 0 {
			ns = float64(c.Timeout) + float64(l.OverTimeout.D())
		}
		if l.Jitter != 0 {
			ns += (2*c.Rand.Float64() - 1) * float64(l.Jitter.D())
		}
		d = durationOf(ns)
	case "uniform":
		d = durationOf(float64(l.Min.D()) + c.Rand.Float64()*(float64(l.Max.D())-float64(l.Min.D())))
	case "normal":
		d = durationOf(float64(l.Latency.D()) + c.Rand.Norm()*float64(l.StdDev.D()))
	case "lognormal":
		d = durationOf(float64(l.Latency.D()) * math.Exp(l.Sigma*c.Rand.Norm()))
	case "pareto":
		u := 1 - c.Rand.Float64() // in (0, 1]
		d = durationOf(float64(l.Min.D()) / math.Pow(u, 1/l.Alpha))
	}
	if l.Max != 0 && d > l.Max.D() {
		d = l.Max.D()
	}
	a.Latency = durationOf(float64(a.Latency) + float64(max(d, 0)))
}

// durationOf converts nanoseconds to a Duration, saturating instead of
// overflowing; negative values become 0.
func durationOf(ns float64) time.Duration {
	switch {
	case math.IsNaN(ns) || ns >= math.MaxInt64:
		return math.MaxInt64
	case ns <= 0:
		return 0
	}
	return time.Duration(ns)
}

func (l *latency) Validate() []error {
	uses, ok := distributions[l.dist()]
	if !ok {
		names := make([]string, 0, len(distributions))
		for n := range distributions {
			names = append(names, n)
		}
		slices.Sort(names)
		return []error{fmt.Errorf("distribution: %q is not a distribution (valid: %s)", l.Distribution, strings.Join(names, ", "))}
	}
	var errs []error
	given := map[string]bool{
		"latency": l.Latency != 0, "jitter": l.Jitter != 0, "over_timeout": l.OverTimeout != 0,
		"min": l.Min != 0, "stddev": l.StdDev != 0, "sigma": l.Sigma != 0, "alpha": l.Alpha != 0,
	}
	if l.dist() == "uniform" {
		uses = append(uses, "max")
	}
	for _, k := range []string{"latency", "jitter", "over_timeout", "min", "stddev", "sigma", "alpha"} {
		if given[k] && !slices.Contains(uses, k) {
			errs = append(errs, fmt.Errorf("%s: not used by distribution %s (it takes: %s, max)", k, l.dist(), strings.Join(uses, ", ")))
		}
	}
	negative := func(key string, d policies.Duration) {
		if d < 0 {
			errs = append(errs, fmt.Errorf("%s: %s is negative", key, d))
		}
	}
	negative("latency", l.Latency)
	negative("jitter", l.Jitter)
	negative("over_timeout", l.OverTimeout)
	negative("min", l.Min)
	negative("max", l.Max)
	negative("stddev", l.StdDev)
	switch l.dist() {
	case "fixed":
		switch {
		case l.Latency == 0 && l.OverTimeout == 0:
			errs = append(errs, fmt.Errorf("latency: missing (give latency, or over_timeout)"))
		case l.Latency != 0 && l.OverTimeout != 0:
			errs = append(errs, fmt.Errorf("over_timeout: give latency or over_timeout, not both"))
		}
	case "uniform":
		if l.Max <= l.Min {
			errs = append(errs, fmt.Errorf("max: %s must be above min (%s)", l.Max, l.Min))
		}
	case "normal":
		if l.Latency <= 0 || l.StdDev <= 0 {
			errs = append(errs, fmt.Errorf("latency (the mean, %s) and stddev (%s) must both be positive", l.Latency, l.StdDev))
		}
	case "lognormal":
		if l.Latency <= 0 || l.Sigma <= 0 || l.Sigma > 10 {
			errs = append(errs, fmt.Errorf("latency (the median, %s) must be positive and sigma (%g) in (0, 10]", l.Latency, l.Sigma))
		}
	case "pareto":
		if l.Min <= 0 || l.Alpha <= 0 || l.Alpha > 100 {
			errs = append(errs, fmt.Errorf("min (the scale, %s) must be positive and alpha (%g) in (0, 100]", l.Min, l.Alpha))
		}
	}
	return errs
}
