package advice_test

import (
	"errors"
	"testing"

	"github.com/retrysim/retrysim/policies"
	"github.com/retrysim/retrysim/report/advice"
)

// TestProvidersResolvesEveryName: each name is looked up in the
// catalogue, every unknown one is said under --provider in the order
// given, and adjust refuses in its own flag's words.
func TestProvidersResolvesEveryName(t *testing.T) {
	cat := policies.Default()
	pols, errs := advice.Providers(cat, []string{"stripe", "nope", "github", "nada"}, nil)
	if len(pols) != 2 || pols[0].Name != "stripe" || pols[1].Name != "github" {
		t.Errorf("policies %v", pols)
	}
	if len(errs) != 2 || !contains(errs[0].Error(), "--provider: ") || !contains(errs[0].Error(), "nope") || !contains(errs[1].Error(), "nada") {
		t.Errorf("errors %q", messages(errs))
	}
	all, errs := advice.Providers(cat, []string{"all"}, nil)
	if errs != nil || len(all) != len(policies.NamedDefaults()) {
		t.Errorf("all: %d policies, %q; want the %d named defaults", len(all), messages(errs), len(policies.NamedDefaults()))
	}
	refused := errors.New("--retries: no")
	_, errs = advice.Providers(cat, []string{"stripe"}, func(p policies.Policy) (policies.Policy, error) { return p, refused })
	if len(errs) != 1 || errs[0] != refused {
		t.Errorf("adjust's error is not returned as it is: %q", messages(errs))
	}
}

// TestRetries: a policy that lets you set its retries takes the number
// within its range; any other is refused, naming those that can.
func TestRetries(t *testing.T) {
	cat := policies.Default()
	pols, errs := advice.Providers(cat, []string{"twilio"}, advice.Retries(cat, 2))
	if errs != nil || pols[0].Retries == nil || *pols[0].Retries != 2 {
		t.Fatalf("twilio --retries 2: %v, %q", pols, messages(errs))
	}
	_, errs = advice.Providers(cat, []string{"twilio"}, advice.Retries(cat, 9))
	if len(errs) != 1 || !contains(errs[0].Error(), "--retries: ") || !contains(errs[0].Error(), "9") {
		t.Errorf("twilio --retries 9: %q", messages(errs))
	}
	_, errs = advice.Providers(cat, []string{"stripe"}, advice.Retries(cat, 2))
	if len(errs) != 1 || !contains(errs[0].Error(), "--retries: policy stripe does not let you set its retries (only: twilio") {
		t.Errorf("stripe --retries 2: %q", messages(errs))
	}
}

// TestProviderFromURL: without --provider, a URL whose path names a
// policy picks it and says so; one naming no policy is pointed out; a
// given --provider, or several, is never changed.
func TestProviderFromURL(t *testing.T) {
	known := func(n string) bool { return n == "stripe" }
	got, note := advice.ProviderFromURL("--url", "http://127.0.0.1:3000/webhooks/stripe", []string{"shopify"}, false, known)
	if len(got) != 1 || got[0] != "stripe" || note != "--url names stripe and --provider is not given: replaying stripe (pass --provider to choose another)" {
		t.Errorf("got %v, %q", got, note)
	}
	got, note = advice.ProviderFromURL("--forward-to", "http://127.0.0.1:3000/webhooks/github", []string{"shopify"}, false, known)
	if len(got) != 1 || got[0] != "shopify" || note != "--forward-to names github, but --provider is shopify (the default): pass --provider with the policy you mean" {
		t.Errorf("got %v, %q", got, note)
	}
	for _, given := range []bool{true, false} {
		providers := []string{"shopify"}
		if !given {
			providers = []string{"shopify", "github"}
		}
		got, note = advice.ProviderFromURL("--url", "http://127.0.0.1:3000/webhooks/stripe", providers, given, known)
		if len(got) != len(providers) || got[0] != "shopify" || note != "" {
			t.Errorf("given %v: got %v, %q", given, got, note)
		}
	}
}
