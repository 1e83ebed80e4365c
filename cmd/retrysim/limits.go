package main

import (
	"errors"
	"fmt"
	"time"

	"github.com/retrysim/retrysim/policies"
	"github.com/retrysim/retrysim/simulator"
)

// flagLimit says in a flag's words what the engine's limit refused:
// "--events: 0 is out of range (1..10000000)". The limits themselves are
// the engine's (simulator.Check*); given is the value as the user spelled
// it, "" for the engine's spelling. An error that is not a limit is only
// prefixed with the flag.
func flagLimit(flag, given string, err error) error {
	if err == nil {
		return nil
	}
	var le *simulator.LimitError
	if !errors.As(err, &le) {
		return fmt.Errorf("--%s: %w", flag, err)
	}
	v := le.Value
	if given != "" {
		v = given
	}
	switch {
	case le.Reserved:
		return fmt.Errorf("--%s: %s is reserved; use any other number", flag, v)
	case le.AboveMin:
		return fmt.Errorf("--%s: %s is out of range (above %s, at most %s)", flag, v, le.Min, le.Max)
	}
	return fmt.Errorf("--%s: %s is out of range (%s..%s)", flag, v, le.Min, le.Max)
}

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
	if err := flagLimit(flag, s, check(d)); err != nil {
		return 0, err
	}
	return d, nil
}
