package main

import (
	"fmt"
	"time"

	"github.com/retrysim/retrysim/policies"
	"github.com/retrysim/retrysim/report/advice"
)

// limitErrs keeps the errors of checks that failed.
func limitErrs(checks ...error) []error {
	var errs []error
	for _, err := range checks {
		if err != nil {
			errs = append(errs, err)
		}
	}
	return errs
}

// parseSpan reads a duration flag the engine bounds (--over, --settle)
// with check.
func parseSpan(flag, s string, check func(time.Duration) error) (time.Duration, error) {
	d, err := policies.ParseDuration(s)
	if err != nil {
		return 0, fmt.Errorf("--%s: %w", flag, err)
	}
	if err := advice.Limit(flag, s, check(d)); err != nil {
		return 0, err
	}
	return d, nil
}
