package main

import "github.com/retrysim/retrysim/policies/configfile"

// secretFor finds provider's secret among the --secret values, then in the
// environment and the config file (configfile.SecretFor).
func (st *settings) secretFor(flags map[string]string, provider string) (string, bool) {
	return configfile.SecretFor(provider, flags, st.secret)
}
