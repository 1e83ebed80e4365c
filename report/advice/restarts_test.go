package advice_test

import (
	"testing"

	"github.com/retrysim/retrysim/report/advice"
	"github.com/retrysim/retrysim/scenarios"
	"github.com/retrysim/retrysim/scenarios/scenariotest"
)

// TestRestartsNeedAHandlerRetrysimStarted: --exec needs the URL it waits
// for; a scenario that restarts the handler needs --exec, and proxy
// cannot restart one at all.
func TestRestartsNeedAHandlerRetrysimStarted(t *testing.T) {
	restarts, calm := scenariotest.Lookup(t, "crash-restart"), scenariotest.Lookup(t, scenarios.Default)
	const url = "http://127.0.0.1:3000/hooks"
	for _, tc := range []struct {
		name      string
		sc        scenarios.Scenario
		exec, url string
		proxy     bool
		want      string
	}{
		{"exec without url", calm, "node server.js", "", false, "--exec starts your handler: give its --url too (retrysim waits for that port)"},
		{"restarts without exec", restarts, "", url, false, "--scenario crash-restart restarts your handler (first at +15m): add --exec CMD so retrysim can start it, kill it and start it again"},
		{"restarts in proxy", restarts, "", url, true, "--scenario crash-restart restarts your handler (first at +15m), and proxy forwards to a handler it did not start: choose a scenario without restarts, or test restarts with 'retrysim run --exec CMD'"},
		{"restarts with exec", restarts, "node server.js", url, false, ""},
		{"restarts of the demo", restarts, "", "", false, ""},
		{"no restarts", calm, "", url, false, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := advice.Restarts(tc.sc, tc.exec, tc.url, tc.proxy)
			got := ""
			if err != nil {
				got = err.Error()
			}
			if got != tc.want {
				t.Errorf("got  %q\nwant %q", got, tc.want)
			}
		})
	}
}
