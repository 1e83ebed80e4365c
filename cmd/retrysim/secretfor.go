package main

import "github.com/retrysim/retrysim/policies"

// secretFor finds provider's secret among the --secret values, then in the
// environment and the config file; under provider's own name first, then
// under the name of the provider it shares a secret with (--secret
// discord=… also signs discord-events, one application's key).
func (st *settings) secretFor(flags map[string]string, provider string) (string, bool) {
	names := []string{provider}
	if shared := policies.SecretName(provider); shared != provider {
		names = append(names, shared)
	}
	for _, n := range names {
		if s, ok := flags[n]; ok {
			return s, true
		}
	}
	for _, n := range names {
		if s, ok := st.secret(n); ok {
			return s, true
		}
	}
	return "", false
}
