package configfile

import "github.com/retrysim/retrysim/policies"

// Secret returns provider's secret from the environment (SecretEnv, read
// with getenv) or, after it, the file's secrets: (file, read from path),
// and says where it came from: "from RETRYSIM_SECRET_STRIPE", or "from
// secrets: in PATH". A secret given on the command line beats both and is
// the caller's to check (SecretFor).
func Secret(provider string, file map[string]string, path string, getenv func(string) string) (secret, from string, ok bool) {
	if v := getenv(SecretEnv(provider)); v != "" {
		return v, "from " + SecretEnv(provider), true
	}
	v, ok := file[provider]
	if !ok {
		return "", "", false
	}
	return v, "from secrets: in " + path, true
}

// SecretFor finds provider's secret among flags (those given on the
// command line),
// then by configured (the environment and the file: Secret); under
// provider's own name first, then under the name of the provider it
// shares a secret with (policies.SecretName: discord's secret also signs
// discord-events, one application's key).
func SecretFor(provider string, flags map[string]string, configured func(provider string) (string, bool)) (string, bool) {
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
		if s, ok := configured(n); ok {
			return s, true
		}
	}
	return "", false
}
