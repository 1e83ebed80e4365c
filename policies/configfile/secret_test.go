package configfile_test

import (
	"testing"

	"github.com/retrysim/retrysim/policies/configfile"
)

// TestSecretEnvironmentBeatsTheFile: a provider's secret comes from its
// RETRYSIM_SECRET_ variable before the file's secrets:, and says which.
func TestSecretEnvironmentBeatsTheFile(t *testing.T) {
	file := map[string]string{"stripe": "from-file", "github": "gh-from-file"}
	getenv := env(map[string]string{"RETRYSIM_SECRET_STRIPE": "from-env"})
	for _, tc := range []struct{ provider, secret, from string }{
		{"stripe", "from-env", "from RETRYSIM_SECRET_STRIPE"},
		{"github", "gh-from-file", "from secrets: in ci.yaml"},
	} {
		s, from, ok := configfile.Secret(tc.provider, file, "ci.yaml", getenv)
		if !ok || s != tc.secret || from != tc.from {
			t.Errorf("%s: %q, %q, %v; want %q, %q", tc.provider, s, from, ok, tc.secret, tc.from)
		}
	}
	if _, _, ok := configfile.Secret("slack", file, "ci.yaml", getenv); ok {
		t.Error("slack has no secret anywhere")
	}
}

// TestSecretForFlagsFirstThenShared: --secret beats the environment and
// the file, and a provider that signs with another's key (discord-events,
// discord's) finds it under that name.
func TestSecretForFlagsFirstThenShared(t *testing.T) {
	configured := func(p string) (string, bool) {
		v, ok := map[string]string{"stripe": "configured-stripe", "discord": "configured-discord"}[p]
		return v, ok
	}
	for _, tc := range []struct {
		provider string
		flags    map[string]string
		want     string
		ok       bool
	}{
		{"stripe", map[string]string{"stripe": "flag-stripe"}, "flag-stripe", true},
		{"stripe", nil, "configured-stripe", true},
		{"discord-events", map[string]string{"discord": "flag-discord"}, "flag-discord", true},
		{"discord-events", nil, "configured-discord", true},
		{"slack", map[string]string{"stripe": "flag-stripe"}, "", false},
	} {
		got, ok := configfile.SecretFor(tc.provider, tc.flags, configured)
		if got != tc.want || ok != tc.ok {
			t.Errorf("%s with %v: %q, %v; want %q, %v", tc.provider, tc.flags, got, ok, tc.want, tc.ok)
		}
	}
}
