package redact_test

import (
	"testing"

	"github.com/retrysim/retrysim/report/redact"
	"github.com/retrysim/retrysim/simulator"
)

// TestReplayMasksThePasswordAndEscapesTheHandlersText: what a replay
// report prints of its result carries no password from the target URL and
// no control character the handler or its oracle sent.
func TestReplayMasksThePasswordAndEscapesTheHandlersText(t *testing.T) {
	res := &simulator.ReplayResult{
		Target:       "http://user:hunter2@127.0.0.1:3000/webhooks/stripe",
		EffectsError: "oracle said \x1b[2J",
		Sends:        []simulator.ReplaySend{{Error: "read: \x1b]0;pwned\x07"}, {Error: ""}},
	}
	redact.Replay(res)
	if want := "http://user:xxxxx@127.0.0.1:3000/webhooks/stripe"; res.Target != want {
		t.Errorf("target %q, want %q", res.Target, want)
	}
	if want := `oracle said \x1b[2J`; res.EffectsError != want {
		t.Errorf("effects error %q, want %q", res.EffectsError, want)
	}
	if want := `read: \x1b]0;pwned\a`; res.Sends[0].Error != want {
		t.Errorf("send error %q, want %q", res.Sends[0].Error, want)
	}
	if res.Sends[1].Error != "" {
		t.Errorf("an empty error became %q", res.Sends[1].Error)
	}
}
