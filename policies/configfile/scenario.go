package configfile

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/retrysim/retrysim/scenarios"
)

// Scenario resolves the scenario a command is given: a scenario of the
// config file's own (own, read from path; it wins over a built-in of the
// same name), a built-in, or a YAML file; names joined by commas compose. An unknown
// name lists the file's scenarios beside the built-in ones. file names
// the YAML file the scenario was read from when it is a file of the
// user's rather than one of own or a built-in, so that no output
// overwrites it; "" otherwise.
func Scenario(name string, own map[string]scenarios.Scenario, path string) (sc scenarios.Scenario, file string, err error) {
	if _, mine := own[name]; !mine && scenarios.IsFileName(name) {
		file = name
	}
	sc, err = scenarios.LookupIn(name, own)
	if err != nil && len(own) > 0 && errors.Is(err, scenarios.ErrUnknown) {
		names := slices.Sorted(maps.Keys(own))
		return sc, file, fmt.Errorf("%w (or from %s: %s)", err, path, strings.Join(names, ", "))
	}
	return sc, file, err
}
