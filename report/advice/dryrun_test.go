package advice_test

import (
	"testing"

	"github.com/retrysim/retrysim/report/advice"
	"github.com/retrysim/retrysim/scenarios"
	"github.com/retrysim/retrysim/scenarios/scenariotest"
)

// TestDryRunRefusesWhatItWouldIgnore: every flag a dry run cannot honour
// is refused on its own line, in the flags' order, saying why and how to
// fix it; a scenario with attacks is refused by name with its attacks.
func TestDryRunRefusesWhatItWouldIgnore(t *testing.T) {
	if errs := (advice.DryRun{Scenario: scenariotest.Lookup(t, scenarios.Default)}).Refusals(); errs != nil {
		t.Fatalf("nothing a dry run cannot take: %q", messages(errs))
	}
	all := advice.DryRun{URL: true, Exec: true, Demo: true, DemoTTL: true, EffectsURL: true,
		Realtime: true, AllowRemote: true, MaxRPS: true, Insecure: true, CA: true}
	sameLines(t, all.Refusals(),
		"--url: a dry run sends nothing, so nothing would reach it (drop it, or drop --dry-run)",
		"--exec: a dry run sends nothing, so there is no handler to start (drop it, or drop --dry-run)",
		"--demo: a dry run models the handler instead of serving a demo one (drop it, or drop --dry-run)",
		"--demo-ttl: a dry run serves no demo handler (drop it, or drop --dry-run)",
		"--effects-url: a dry run sends nothing, so there are no side effects to ask about (drop it, or drop --dry-run)",
		"--realtime: a dry run has no handler to give real time to, and would only wait the schedule out on the wall clock (drop it, or drop --dry-run)",
		"--allow-remote: a dry run connects to no machine (drop it, or drop --dry-run)",
		"--max-rps: a dry run sends no request to cap (drop it, or drop --dry-run)",
		"--insecure: a dry run makes no TLS connection (drop it, or drop --dry-run)",
		"--ca: a dry run makes no TLS connection (drop it, or drop --dry-run)",
	)
	forged := advice.DryRun{Scenario: scenariotest.Lookup(t, scenarios.Forged)}.Refusals()
	if len(forged) != 1 {
		t.Fatalf("forged scenario: %q", messages(forged))
	}
	msg := forged[0].Error()
	sc := scenariotest.Lookup(t, scenarios.Forged)
	for _, a := range sc.Attacks() {
		if !contains(msg, a.Name()) {
			t.Errorf("%q does not name the attack %s", msg, a.Name())
		}
	}
	if !contains(msg, "--scenario forged: its attacks (") || !contains(msg, ") are requests, and a dry run sends none (drop it, or drop --dry-run)") {
		t.Errorf("forged scenario: %q", msg)
	}
}
