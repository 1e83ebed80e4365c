package advice

import (
	"errors"
	"fmt"

	"github.com/retrysim/retrysim/policies"
	"github.com/retrysim/retrysim/scenarios"
)

// Restarts checks the handler a command starts against the scenario's
// restarts: --exec (exec, "" when not given) needs the --url it waits
// for; a scenario that restarts the handler needs --exec to start it, and
// proxy (which forwards to a handler it did not start) cannot restart
// one. url is --url or proxy's --forward-to; nil when all is well.
func Restarts(sc scenarios.Scenario, exec, url string, proxy bool) error {
	switch restarts := sc.Restarts(); {
	case exec != "" && url == "":
		return errors.New("--exec starts your handler: give its --url too (retrysim waits for that port)")
	case len(restarts) > 0 && proxy:
		return fmt.Errorf("--scenario %s restarts your handler (first at +%s), and proxy forwards to a handler it did not start: choose a scenario without restarts, or test restarts with 'retrysim run --exec CMD'", sc.Name, policies.FormatDuration(restarts[0]))
	case len(restarts) > 0 && url != "" && exec == "":
		return fmt.Errorf("--scenario %s restarts your handler (first at +%s): add --exec CMD so retrysim can start it, kill it and start it again", sc.Name, policies.FormatDuration(restarts[0]))
	}
	return nil
}
