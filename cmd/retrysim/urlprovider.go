package main

import (
	"fmt"
	"io"

	"github.com/retrysim/retrysim/policies"
)

// providerFromURL makes the provider the --url's path names the run's
// provider when --provider was not given, and says so on stderr: a
// Stripe handler at /webhooks/stripe gets Stripe's deliveries, not the
// default's. A name without a policy of its own is only pointed out.
func (f *runFlags) providerFromURL(st *settings, stderr io.Writer) {
	if f.url == "" || (f.given != nil && f.given("provider")) || len(f.providers) != 1 {
		return
	}
	name, ok := policies.ProviderInURL(f.url)
	if !ok || name == f.providers[0] {
		return
	}
	if _, err := st.policy(name); err != nil {
		fmt.Fprintf(stderr, "retrysim: %s names %s, but --provider is %s (the default): pass --provider with the policy you mean\n", f.urlFlagName(), name, f.providers[0])
		return
	}
	fmt.Fprintf(stderr, "retrysim: %s names %s and --provider is not given: replaying %s (pass --provider to choose another)\n", f.urlFlagName(), name, name)
	f.providers = []string{name}
}
