package policies

import (
	"errors"
	"fmt"
	"strconv"
	"time"
)

// DisableRule is how a provider decides to give up on an endpoint, across all
// its events. Exactly one of three forms is set:
//
//   - ConsecutiveFailures: that many failed attempts in a row, all within
//     Within when Within is set (Shopify: 19 within 48 h; GitLab: 40).
//   - FailureRate: more than that share of the attempts of the last Within
//     failed, once at least MinAttempts were made in it (Slack: over 95 %
//     within 60 minutes, apps under 1,000 events an hour exempt).
//   - FailingFor: every attempt has failed for that long (Svix: 5 days).
//
// Besides the form, a rule may say two more things:
//
//   - Backoff (with consecutive_failures): before the endpoint is disabled
//     for good it is disabled for a while, again and again (GitLab: after
//     4 consecutive failures for 1 minute, doubling up to 24 h). Nothing is
//     sent to it meanwhile: events due then are never sent.
//   - ClockStart (with failing_for): the clock of failing_for starts only
//     once failures have gone on for a while (Svix: failures within a
//     24 h span at least 12 h apart).
type DisableRule struct {
	ConsecutiveFailures int         `yaml:"consecutive_failures,omitempty"`
	Within              Duration    `yaml:"within,omitempty"`
	FailureRate         float64     `yaml:"failure_rate,omitempty"`
	MinAttempts         int         `yaml:"min_attempts,omitempty"`
	FailingFor          Duration    `yaml:"failing_for,omitempty"`
	Backoff             *Backoff    `yaml:"backoff,omitempty"`
	ClockStart          *ClockStart `yaml:"clock_start,omitempty"`
}

// Backoff is a temporary disable: after After consecutive failures the
// endpoint is disabled for First; each further failure (the first attempt
// after the pause, failing again) disables it for Factor times longer, up
// to Max. A success ends it.
type Backoff struct {
	After  int      `yaml:"after"`
	First  Duration `yaml:"first"`
	Factor float64  `yaml:"factor"`
	Max    Duration `yaml:"max"`
}

// Pause is how long the endpoint is disabled after streak consecutive
// failures (streak >= After): First, times Factor for each failure past
// After, at most Max.
func (b *Backoff) Pause(streak int) time.Duration {
	d := float64(b.First.D())
	for range streak - b.After {
		d *= b.Factor
		if d >= float64(b.Max.D()) {
			return b.Max.D()
		}
	}
	return min(time.Duration(d), b.Max.D())
}

// ClockStart says when a failing_for clock starts: at the first failure
// that comes at least Apart after an earlier failure of the streak, and
// at most Within after it.
type ClockStart struct {
	Within Duration `yaml:"within"`
	Apart  Duration `yaml:"apart"`
}

func (r *DisableRule) validate() []error {
	var errs []error
	forms := 0
	if r.ConsecutiveFailures != 0 {
		forms++
		if r.ConsecutiveFailures < 1 {
			errs = append(errs, fmt.Errorf("disable.consecutive_failures must be at least 1, got %d", r.ConsecutiveFailures))
		}
	}
	if r.FailureRate != 0 {
		forms++
		if !(r.FailureRate > 0 && r.FailureRate < 1) { // NaN too
			errs = append(errs, fmt.Errorf("disable.failure_rate must be between 0 and 1 (0.95 for 95 %%), got %g", r.FailureRate))
		}
		if r.Within <= 0 {
			errs = append(errs, errors.New("disable.failure_rate needs disable.within, the window the rate is measured over"))
		}
	}
	if r.FailingFor != 0 {
		forms++
	}
	if r.MinAttempts < 0 {
		errs = append(errs, fmt.Errorf("disable.min_attempts must not be negative, got %d", r.MinAttempts))
	}
	if r.MinAttempts > 0 && r.FailureRate == 0 {
		errs = append(errs, errors.New("disable.min_attempts applies only to disable.failure_rate"))
	}
	if forms != 1 {
		errs = append(errs, errors.New("disable: give exactly one of consecutive_failures, failure_rate or failing_for"))
	}
	if b := r.Backoff; b != nil {
		switch {
		case r.ConsecutiveFailures == 0:
			errs = append(errs, errors.New("disable.backoff applies only to disable.consecutive_failures"))
		case b.After < 1 || b.After >= r.ConsecutiveFailures:
			errs = append(errs, fmt.Errorf("disable.backoff.after must be 1..%d (below consecutive_failures), got %d", r.ConsecutiveFailures-1, b.After))
		}
		if b.First <= 0 || b.Max < b.First || !(b.Factor >= 1 && b.Factor <= 100) {
			errs = append(errs, fmt.Errorf("disable.backoff: first (%s) must be positive, max (%s) at least first, factor (%g) in [1, 100]", b.First, b.Max, b.Factor))
		}
	}
	if c := r.ClockStart; c != nil {
		if r.FailingFor == 0 {
			errs = append(errs, errors.New("disable.clock_start applies only to disable.failing_for"))
		}
		if c.Apart <= 0 || c.Within < c.Apart {
			errs = append(errs, fmt.Errorf("disable.clock_start: apart (%s) must be positive and within (%s) at least apart", c.Apart, c.Within))
		}
	}
	return errs
}

// String says the rule in words, e.g. "after 19 consecutive failures within
// 2d".
func (r *DisableRule) String() string {
	if r == nil {
		return "never"
	}
	if r.FailureRate > 0 {
		return r.Condition()
	}
	return "after " + r.Condition()
}

// Condition says what disables the endpoint, as the reason it was: "19
// consecutive failures within 2d", "every attempt has failed for 5d",
// "when over 95 % of the attempts within 1h fail".
func (r *DisableRule) Condition() string {
	switch {
	case r == nil:
		return "never"
	case r.FailureRate > 0:
		s := "when over " + strconv.FormatFloat(r.FailureRate*100, 'f', -1, 64) + " % of the attempts within " + r.Within.String() + " fail"
		if r.MinAttempts > 0 {
			s += fmt.Sprintf(" (at least %d attempts in that time)", r.MinAttempts)
		}
		return s
	case r.FailingFor > 0:
		s := "every attempt has failed for " + r.FailingFor.String()
		if c := r.ClockStart; c != nil {
			s += fmt.Sprintf(" (counted from once failures %s apart within %s)", c.Apart, c.Within)
		}
		return s
	default:
		s := fmt.Sprintf("%d consecutive failures", r.ConsecutiveFailures)
		if r.Within > 0 {
			s += " within " + r.Within.String()
		}
		if b := r.Backoff; b != nil {
			s += fmt.Sprintf(" (disabled for a while after %d: %s, ×%g per further failure, up to %s)", b.After, b.First, b.Factor, b.Max)
		}
		return s
	}
}
