package advice_test

import (
	"testing"

	"github.com/retrysim/retrysim/report/advice"
)

// TestReplayGates: replay judges duplicate-effects only, and refuses it
// when nothing could report the handler's writes.
func TestReplayGates(t *testing.T) {
	if errs := advice.ReplayGates(nil, true); errs != nil {
		t.Errorf("no gate: %q", messages(errs))
	}
	if errs := advice.ReplayGates([]string{"duplicate-effects"}, false); errs != nil {
		t.Errorf("duplicate-effects with an oracle: %q", messages(errs))
	}
	sameLines(t, advice.ReplayGates([]string{"lost-events"}, false),
		"--fail-on: lost-events is a gate of run and report; replay checks only duplicate-effects")
	if errs := advice.ReplayGates([]string{"duplicate-effects"}, true); len(errs) != 1 || !contains(errs[0].Error(), "--effects-url") {
		t.Errorf("duplicate-effects without an oracle: %q", messages(errs))
	}
	if errs := advice.ReplayGates([]string{"nope"}, false); len(errs) != 1 || !contains(errs[0].Error(), "--fail-on: ") {
		t.Errorf("an unknown gate: %q", messages(errs))
	}
}

// TestReplayOracle: replay reads an HTTP oracle; a database URL is
// refused, saying which commands read one.
func TestReplayOracle(t *testing.T) {
	for _, url := range []string{"", "http://127.0.0.1:3000/_retrysim/effects"} {
		if err := advice.ReplayOracle(url); err != nil {
			t.Errorf("%q: %v", url, err)
		}
	}
	for _, url := range []string{"postgres://app@127.0.0.1/app", "mysql://app@127.0.0.1/app", "sqlite:app.db"} {
		if err := advice.ReplayOracle(url); err == nil || !contains(err.Error(), "not from a database; run and proxy read one") {
			t.Errorf("%q: %v", url, err)
		}
	}
}
