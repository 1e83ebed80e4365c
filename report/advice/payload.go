package advice

import (
	"errors"
	"fmt"
	"strings"

	"github.com/retrysim/retrysim/policies/payload"
)

// PayloadChoice says a problem with a --payload or --set value (a
// *payload.ChoiceError, as payload.ForRun returns it) in the flags'
// words; any other error is returned as it is.
func PayloadChoice(err error) error {
	var ce *payload.ChoiceError
	if !errors.As(err, &ce) {
		return err
	}
	flag, sep, what := "--payload", "=", "payload"
	if ce.Given == payload.GivenOverride {
		flag, sep, what = "--set", ":", "field"
	}
	run := strings.Join(ce.Policies, ", ")
	switch ce.Problem {
	case payload.NotInRun:
		if ce.Given == payload.GivenOverride {
			return fmt.Errorf("%s %s: %s is not among the providers this run replays (%s)", flag, ce.Value, ce.Provider, run)
		}
		return fmt.Errorf("%s %s: %s is not among the providers this run replays (%s): add --provider %s", flag, ce.Value, ce.Provider, run, ce.Provider)
	case payload.Whose:
		return fmt.Errorf("%s %s: --provider names %d policies (%s): say whose %s it is, e.g. %s %s%s%s", flag, ce.Value, len(ce.Policies), run, what, flag, ce.Provider, sep, ce.Value)
	case payload.NotLoaded:
		return fmt.Errorf("%s for %s: %w", flag, ce.Policy, ce.Err)
	}
	return fmt.Errorf("%s #%d: %w", flag, ce.Index, ce.Err)
}

// Distinct joins errs into one, dropping an error that says what an
// earlier one said (a header refused for each of several policies of one
// provider); nil when there are none.
func Distinct(errs []error) []error {
	var out []error
	seen := map[string]bool{}
	for _, err := range errs {
		if !seen[err.Error()] {
			seen[err.Error()] = true
			out = append(out, err)
		}
	}
	if len(out) == 0 {
		return nil
	}
	return []error{errors.Join(out...)}
}
