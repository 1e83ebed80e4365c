package advice_test

import (
	"testing"

	"github.com/retrysim/retrysim/policies/configfile"
	"github.com/retrysim/retrysim/report/advice"
)

// TestUntrusted: a command to run from an untrusted place is an error
// saying where it may come from; a path to write to is a note naming the
// flag and its variable; a trusted value is neither.
func TestUntrusted(t *testing.T) {
	note, err := advice.Untrusted(configfile.Taken, "events", "events", "retrysim.yaml:2: events")
	if note != "" || err != nil {
		t.Errorf("taken: %q, %v", note, err)
	}
	note, err = advice.Untrusted(configfile.RunsCommand, "exec", "exec", "retrysim.yaml:3: exec")
	if want := "retrysim.yaml:3: exec: exec is taken only from --exec or from a config file named with --config, so that running retrysim in a directory never runs a command it names"; note != "" || err == nil || err.Error() != want {
		t.Errorf("a command: %q, %v\nwant %q", note, err, want)
	}
	note, err = advice.Untrusted(configfile.WritesHere, "results", "results", "retrysim.yaml:4: results")
	if want := "retrysim.yaml:4: results: ignored: where retrysim writes is taken only from --results, RETRYSIM_RESULTS or a config file named with --config, so that running retrysim in a directory never writes where a file there says"; err != nil || note != want {
		t.Errorf("a path: %q, %v\nwant %q", note, err, want)
	}
	note, err = advice.Untrusted(configfile.SendsAway, "allow-remote", "allow-remote", "retrysim.yaml:5: allow-remote")
	if want := "retrysim.yaml:5: allow-remote: ignored: the loopback guard is turned off only by --allow-remote, RETRYSIM_ALLOW_REMOTE or a config file named with --config, so that a file in the directory where retrysim runs never opens it to other machines (sending to them, or the demo handler listening for them)"; err != nil || note != want {
		t.Errorf("the loopback guard: %q, %v\nwant %q", note, err, want)
	}
}
