package advice_test

import (
	"testing"

	"github.com/retrysim/retrysim/report/advice"
)

// TestEventTypesSaysTheFlag: an event type for several providers asks
// for one per provider with an example, one for a provider outside the
// run names the run's, and a type the provider does not send names the
// flag.
func TestEventTypesSaysTheFlag(t *testing.T) {
	pols := mustPolicies(t, "stripe", "github")
	_, errs := advice.EventTypes([]string{"push"}, pols)
	if len(errs) != 1 || !contains(errs[0].Error(), "--event-type push: --provider names 2 policies (stripe, github), and an event type belongs to one provider: give one per provider, e.g. --event-type ") {
		t.Errorf("one type for two: %q", messages(errs))
	}
	_, errs = advice.EventTypes([]string{"github=push"}, mustPolicies(t, "stripe"))
	sameLines(t, errs, "--event-type github=push: github is not a provider of this run (--provider: stripe)")
	types, errs := advice.EventTypes([]string{"stripe=invoice.paid", "github=release"}, pols)
	if len(errs) != 0 || types["stripe"] != "invoice.paid" || types["github"] != "release" {
		t.Errorf("good choices: %v, %q", types, messages(errs))
	}
	_, errs = advice.EventTypes([]string{"stripe=no such type!"}, pols)
	if len(errs) != 1 || !contains(errs[0].Error(), "--event-type: ") {
		t.Errorf("a bad type: %q", messages(errs))
	}
}

// TestURLOverridesNameTheFlag: a connection override in the URL fragment
// a policy cannot take is refused under the flag that gave the URL.
func TestURLOverridesNameTheFlag(t *testing.T) {
	if errs := advice.URLOverrides("--url", "http://127.0.0.1:3000/hooks", mustPolicies(t, "twilio")); len(errs) != 0 {
		t.Fatalf("a plain URL: %q", messages(errs))
	}
	errs := advice.URLOverrides("--forward-to", "http://127.0.0.1:3000/hooks#rc=9&bogus=1", mustPolicies(t, "twilio"))
	if len(errs) == 0 {
		t.Fatal("a bad override was taken")
	}
	for _, e := range errs {
		if !contains(e.Error(), "--forward-to: ") {
			t.Errorf("%q does not name the flag", e)
		}
	}
}
