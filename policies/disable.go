package policies

import (
	"errors"
	"fmt"
	"strconv"
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
type DisableRule struct {
	ConsecutiveFailures int      `yaml:"consecutive_failures,omitempty"`
	Within              Duration `yaml:"within,omitempty"`
	FailureRate         float64  `yaml:"failure_rate,omitempty"`
	MinAttempts         int      `yaml:"min_attempts,omitempty"`
	FailingFor          Duration `yaml:"failing_for,omitempty"`
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
		return "every attempt has failed for " + r.FailingFor.String()
	default:
		s := fmt.Sprintf("%d consecutive failures", r.ConsecutiveFailures)
		if r.Within > 0 {
			s += " within " + r.Within.String()
		}
		return s
	}
}
