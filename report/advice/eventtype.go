package advice

import (
	"errors"
	"fmt"
	"strings"

	"github.com/retrysim/retrysim/policies"
)

// EventTypes reads --event-type for the policies of a run
// (policies.ChooseEventTypes) and says each problem in the flags' words.
func EventTypes(given []string, pols []policies.Policy) (map[string]string, []error) {
	out, errs := policies.ChooseEventTypes(given, pols)
	for i, err := range errs {
		var many *policies.OneTypeForManyError
		var notRun *policies.NotInRunError
		switch {
		case errors.As(err, &many):
			errs[i] = fmt.Errorf("--event-type %s: --provider names %d policies (%s), and an event type belongs to one provider: give one per provider, e.g. --event-type %s",
				many.Type, len(many.Policies), strings.Join(many.Policies, ", "), strings.Join(many.Pairs, ","))
		case errors.As(err, &notRun):
			errs[i] = fmt.Errorf("--event-type %s=%s: %s is not a provider of this run (--provider: %s)", notRun.Provider, notRun.Type, notRun.Provider, strings.Join(notRun.Policies, ", "))
		default:
			errs[i] = fmt.Errorf("--event-type: %w", err)
		}
	}
	return out, errs
}

// URLOverrides refuses, naming flag (--url) and each bad key, connection
// overrides in the URL fragment that a policy reading them (Twilio) cannot
// take (policies.URLOverrideProblems), before anything is printed or sent.
func URLOverrides(flag, url string, pols []policies.Policy) []error {
	name, problems := policies.URLOverrideProblems(url, pols)
	for i, e := range problems {
		problems[i] = fmt.Errorf("%s: %s: %w", flag, name, e)
	}
	return problems
}
