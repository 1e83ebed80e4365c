package policies_test

import (
	"slices"
	"testing"

	"github.com/retrysim/retrysim/policies"
)

// TestSecretsNotRun: a secret for a provider the run does not replay is
// named; discord-events signs with discord's key, so discord's secret is
// meant for a discord-events run and is not.
func TestSecretsNotRun(t *testing.T) {
	var pols []policies.Policy
	for _, name := range []string{"discord-events", "stripe", "stripe"} {
		p, err := policies.Default().Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		pols = append(pols, p)
	}
	unused, run := policies.SecretsNotRun(map[string]string{"discord": "k", "stripe": "k", "slack": "k", "github": "k"}, pols)
	if want := []string{"github", "slack"}; !slices.Equal(unused, want) {
		t.Errorf("unused %v, want %v", unused, want)
	}
	if want := []string{pols[0].Provider, "stripe"}; !slices.Equal(run, want) {
		t.Errorf("run %v, want %v", run, want)
	}
}
