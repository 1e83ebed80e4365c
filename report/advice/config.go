package advice

import (
	"fmt"

	"github.com/retrysim/retrysim/policies/configfile"
)

// Untrusted says what becomes of a value for flag (its config key key)
// found at source (configfile.Source) that the config file or the
// environment is not trusted with (configfile.TrustOf): a command to run
// is an error; a path to write to, or the loopback guard turned off, is
// left out, and note says so. Both are "" and nil for a value that is
// taken.
func Untrusted(t configfile.Trust, flag, key, source string) (note string, err error) {
	switch t {
	case configfile.RunsCommand:
		return "", fmt.Errorf("%s: exec is taken only from --exec or from a config file named with --config, so that running retrysim in a directory never runs a command it names", source)
	case configfile.WritesHere:
		return fmt.Sprintf("%s: ignored: where retrysim writes is taken only from --%s, %s or a config file named with --config, so that running retrysim in a directory never writes where a file there says",
			source, flag, configfile.EnvName(key)), nil
	case configfile.SendsAway:
		return fmt.Sprintf("%s: ignored: the loopback guard is turned off only by --%s, %s or a config file named with --config, so that a file in the directory where retrysim runs never opens it to other machines (sending to them, or the demo handler listening for them)",
			source, flag, configfile.EnvName(key)), nil
	}
	return "", nil
}
