package policies

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func TestExtendOverridesBuiltin(t *testing.T) {
	cat, err := Default().ExtendYAML("retrysim.yaml", []byte("stripe: {timeout: 20s}\n"))
	if err != nil {
		t.Fatal(err)
	}
	p, _ := cat.Lookup("stripe")
	orig := mustLookup(t, "stripe")
	if p.Timeout.D() != 20*time.Second {
		t.Errorf("timeout %s, want 20s", p.Timeout)
	}
	if p.MaxAttempts() != orig.MaxAttempts() || p.Window() != orig.Window() {
		t.Error("fields not given were not kept from the built-in")
	}
	// The summary heads every report: a changed built-in says so there.
	if want := orig.Summary + "; timeout changed in retrysim.yaml:1"; p.Summary != want {
		t.Errorf("summary %q, want %q", p.Summary, want)
	}
	if !strings.HasSuffix(p.Source, orig.Source) || !strings.Contains(p.Source, "timeout from retrysim.yaml:1") {
		t.Errorf("source %q should name the change and keep the built-in's source", p.Source)
	}
	if orig.Timeout.D() == 20*time.Second {
		t.Error("the built-in catalogue changed")
	}
}

func TestExtendDefinesPolicies(t *testing.T) {
	doc := `
acme:
  provider: standard-webhooks
  summary: our own sender
  schedule: {delays: [1m, 10m]}
  timeout: 5s
  stop: [{status: 410, disable: true}]
slow-stripe:
  base: stripe
  timeout: 60s
  schedule: {offsets: [0, 1h, 1d]}
`
	cat, err := Default().ExtendYAML("team.yaml", []byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	acme, err := cat.Lookup("acme")
	if err != nil {
		t.Fatal(err)
	}
	if acme.MaxAttempts() != 3 || acme.Window() != 11*time.Minute || !acme.CanDisableAtOnce() {
		t.Errorf("acme: %d attempts over %s", acme.MaxAttempts(), acme.Window())
	}
	slow, _ := cat.Lookup("slow-stripe")
	if slow.Provider != "stripe" || slow.Timeout.D() != time.Minute || slow.Window() != Day {
		t.Errorf("slow-stripe: provider %s timeout %s window %s", slow.Provider, slow.Timeout, slow.Window())
	}
	if d, _ := slow.Delay(2); d != 23*time.Hour {
		t.Errorf("slow-stripe delay 2 = %s, want 23h", d)
	}
}

// TestExtendErrors: decoding is strict, and every problem is reported at
// once, each naming the file, the key and the value.
func TestExtendErrors(t *testing.T) {
	tests := []struct {
		name string
		doc  string
		want []string
	}{
		{"bad duration", "stripe: {timeout: 20x}\n", []string{"cfg.yaml:1", "policies.stripe.timeout", `"20x"`}},
		{"unknown key", "stripe: {timout: 20s}\n", []string{"policies.stripe.timout", "unknown key", "timeout"}},
		{"unknown nested key", "stripe:\n  schedule: {exponential: {attempts: 3, windw: 1h, factor: 2}}\n", []string{"cfg.yaml:2", "policies.stripe.schedule", "windw"}},
		{"invalid policy", "acme: {provider: nope, schedule: {delays: []}, timeout: 1s}\n", []string{"cfg.yaml:1: policies.acme.provider: \"nope\" has no wire format"}},
		{"a new policy's missing key", "acme:\n  provider: stripe\n  schedule: {delays: [1m]}\n", []string{"cfg.yaml:1: policies.acme.timeout: missing: a new policy needs provider, schedule and timeout"}},
		{"a problem points at its key's line", "acme:\n  provider: stripe\n  timeout: 0s\n  schedule: {offsets: [1m]}\n", []string{"cfg.yaml:3: policies.acme.timeout: must be positive, got 0s", "cfg.yaml:4: policies.acme.schedule: offsets must start at 0"}},
		{"a nested key's problem", "shopify:\n  timeout: 5s\n  disable: {failure_rate: 2, within: 1h}\n", []string{"cfg.yaml:3: policies.shopify.disable.failure_rate: must be between 0 and 1"}},
		{"a rate that is not a number", "shopify: {disable: {failure_rate: .nan, within: 1h}}\n", []string{"policies.shopify.disable.failure_rate: must be between 0 and 1", "NaN"}},
		{"unknown base", "acme: {base: strpe}\n", []string{"policies.acme.base", `"strpe"`}},
		{"bad disable", "shopify: {disable: {failure_rate: 2}}\n", []string{"policies.shopify", "failure_rate", "2"}},
		{"not a map", "stripe: fast\n", []string{"policies.stripe", `"fast"`}},
		{"two at once", "stripe: {timeout: x}\ngithub: {retries: y}\n", []string{"policies.stripe.timeout", "policies.github.retries", `"x"`, `"y"`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Default().ExtendYAML("cfg.yaml", []byte(tc.doc))
			if !errors.Is(err, ErrBadConfig) {
				t.Fatalf("err = %v, want ErrBadConfig", err)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
		})
	}
}

// A policy built on another with a new schedule does not keep the other's
// summary: every figure printed must be the policy's own.
func TestBaseWithNewScheduleSaysItsOwnSummary(t *testing.T) {
	cat, err := Default().ExtendYAML("retrysim.yaml", []byte("stripe-slow: {base: stripe, schedule: {offsets: [0, 1h, 1d]}}\n"))
	if err != nil {
		t.Fatal(err)
	}
	p, _ := cat.Lookup("stripe-slow")
	if p.Summary != "3 attempts over 1d" {
		t.Errorf("summary %q, want the new schedule's", p.Summary)
	}
	if !strings.Contains(p.Notes, "schedule from retrysim.yaml:1, otherwise as stripe") {
		t.Errorf("notes %q do not say what changed", p.Notes)
	}
}
