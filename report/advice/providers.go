package advice

import (
	"fmt"
	"strings"

	"github.com/retrysim/retrysim/policies"
)

// Providers resolves --provider (list) against cat: each policy it names
// ('all' for the named defaults), given to adjust (which may change it,
// or refuse it with an error naming its own flag) when adjust is not nil.
// Every problem is returned, in the order the names were given.
func Providers(cat *policies.Catalogue, list []string, adjust func(policies.Policy) (policies.Policy, error)) ([]policies.Policy, []error) {
	names, err := policies.ParseNames(list)
	if err != nil {
		return nil, []error{fmt.Errorf("--provider: %w", err)}
	}
	var pols []policies.Policy
	var errs []error
	for _, n := range names {
		pol, err := cat.Lookup(n)
		if err == nil && adjust != nil {
			pol, err = adjust(pol)
		} else if err != nil {
			err = fmt.Errorf("--provider: %w", err)
		}
		if err != nil {
			errs = append(errs, err)
			continue
		}
		pols = append(pols, pol)
	}
	return pols, errs
}

// Retries is --retries n as Providers' adjust: the policy with n retries,
// refused for a policy whose retries cannot be set (naming those of cat
// that can) or cannot be n.
func Retries(cat *policies.Catalogue, n int) func(policies.Policy) (policies.Policy, error) {
	return func(pol policies.Policy) (policies.Policy, error) {
		if pol.Retries == nil {
			return pol, fmt.Errorf("--retries: policy %s does not let you set its retries (only: %s)", pol.Name, strings.Join(cat.Settable(), ", "))
		}
		pol, err := pol.WithRetries(n)
		if err != nil {
			return pol, fmt.Errorf("--retries: %w", err)
		}
		return pol, nil
	}
}

// ProviderFromURL is the provider a run takes from its handler's URL when
// --provider was not given (providerGiven false) and names one policy,
// the default: a Stripe handler at /webhooks/stripe gets Stripe's
// deliveries, not the default's. flag is the flag that gave url (--url,
// proxy's --forward-to); known says a name has a policy. It returns the
// providers to run and a note for stderr ("" when there is nothing to
// say): a name without a policy of its own is only pointed out.
func ProviderFromURL(flag, url string, providers []string, providerGiven bool, known func(name string) bool) ([]string, string) {
	if url == "" || providerGiven || len(providers) != 1 {
		return providers, ""
	}
	name, ok := policies.ProviderInURL(url)
	if !ok || name == providers[0] {
		return providers, ""
	}
	if !known(name) {
		return providers, fmt.Sprintf("%s names %s, but --provider is %s (the default): pass --provider with the policy you mean", flag, name, providers[0])
	}
	return []string{name}, fmt.Sprintf("%s names %s and --provider is not given: replaying %s (pass --provider to choose another)", flag, name, name)
}
