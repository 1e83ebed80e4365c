package main

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/retrysim/retrysim/policies"
)

// verifying answers 200 only to requests signed with secret.
func verifying(t *testing.T, provider, secret string) string {
	w, _ := policies.WireFor(provider)
	srv := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		var buf bytes.Buffer
		buf.ReadFrom(r.Body)
		if err := w.Verify(r.Header, buf.Bytes(), "http://"+r.Host+r.URL.RequestURI(), secret, timeNow()); err != nil {
			rw.WriteHeader(401)
			return
		}
		rw.WriteHeader(200)
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/hook"
}

// TestSecretsNeverLeak: a secret given on the command line, in the
// environment or in the config file signs the requests, and appears in no
// report, results file or message. A generated one is printed once.
func TestSecretsNeverLeak(t *testing.T) {
	const given = "whsec_c2VjcmV0LWZvci10ZXN0cy1vbmx5LTEyMzQ1"
	tests := []struct {
		name   string
		config string
		env    bool
		flag   bool
	}{
		{name: "flag", flag: true},
		{name: "environment", env: true},
		{name: "config file", config: "secrets:\n  stripe: " + given + "\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if tc.config != "" {
				os.WriteFile(filepath.Join(dir, "retrysim.yaml"), []byte(tc.config), 0o644)
			}
			if tc.env {
				t.Setenv("RETRYSIM_SECRET_STRIPE", given)
			}
			args := []string{"run", "--provider", "stripe,stripe-test", "--scenario", "flaky-network", "--events", "5",
				"--url", verifying(t, "stripe", given), "--results", "res.jsonl", "--format", "json"}
			if tc.flag {
				args = append(args, "--secret", "stripe="+given)
			}
			code, out, errs := runCLI(t, dir, args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errs)
			}
			res, _ := os.ReadFile(filepath.Join(dir, "res.jsonl"))
			for what, s := range map[string]string{"report": out, "stderr": errs, "results": string(res)} {
				if strings.Contains(s, given) || strings.Contains(s, strings.TrimPrefix(given, "whsec_")) {
					t.Errorf("the secret appears in the %s", what)
				}
			}
			var rep struct {
				Runs []json.RawMessage `json:"runs"`
			}
			if err := json.Unmarshal([]byte(out), &rep); err != nil {
				t.Fatalf("report: %v", err)
			}
			if !strings.Contains(string(res), `"outcome":"delivered"`) || strings.Contains(string(res), `"status":401`) {
				t.Error("requests were not signed with the given secret")
			}
		})
	}
	t.Run("generated", func(t *testing.T) {
		secret := policies.GenerateSecret("stripe", 9)
		dir := t.TempDir()
		code, out, errs := runCLI(t, dir, "run", "--provider", "stripe,stripe-test", "--events", "3", "--seed", "9",
			"--url", verifying(t, "stripe", secret), "--results", "res.jsonl")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errs)
		}
		if n := strings.Count(errs, secret); n != 1 {
			t.Errorf("the generated secret is printed %d times on stderr, want once:\n%s", n, errs)
		}
		if strings.Contains(out, secret) {
			t.Error("the generated secret appears in the report")
		}
		res, _ := os.ReadFile(filepath.Join(dir, "res.jsonl"))
		if strings.Contains(string(res), `"status":401`) || !strings.Contains(string(res), `"outcome":"delivered"`) {
			t.Error("the handler configured with the printed secret rejected requests")
		}
	})
	t.Run("bad secret flag", func(t *testing.T) {
		code, _, errs := runCLI(t, t.TempDir(), "run", "--dry-run", "--secret", "strpe="+given)
		if code != exitBadInput || strings.Contains(errs, given) || !strings.Contains(errs, "strpe") {
			t.Errorf("exit %d, stderr %q: want exit 2 naming the provider, not the secret", code, errs)
		}
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, "retrysim.yaml"), []byte("secrets:\n  strpe: "+given+"\n"), 0o644)
		code, _, errs = runCLI(t, dir, "run", "--dry-run")
		if code != exitBadInput || strings.Contains(errs, given) || !strings.Contains(errs, "retrysim.yaml") || !strings.Contains(errs, "secrets.strpe") {
			t.Errorf("config: exit %d, stderr %q", code, errs)
		}
	})
	t.Run("discord public key", func(t *testing.T) {
		secret := policies.GenerateSecret("discord", 1)
		pub, _ := policies.PublicKey("discord", secret)
		code, _, errs := runCLI(t, t.TempDir(), "run", "--provider", "discord", "--events", "2", "--url", verifying(t, "discord", secret))
		if code != 0 || strings.Count(errs, pub) != 1 {
			t.Errorf("exit %d; the public key is printed %d times, want once:\n%s", code, strings.Count(errs, pub), errs)
		}
	})
}

// TestCustomPoliciesFromConfig: a config file's policies: section overrides
// a built-in and adds policies that run and list; a bad one exits 2 naming
// the file, the key and the value.
func TestCustomPoliciesFromConfig(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "retrysim.yaml"), []byte(`policies:
  stripe: {timeout: 20s}
  acme: {base: svix, schedule: {delays: [1m]}}
`), 0o644)
	code, out, errs := runCLI(t, dir, "policies", "show", "stripe", "--format", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var p map[string]any
	if err := json.Unmarshal([]byte(out), &p); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"name", "provider", "max_attempts", "delays_seconds", "timeout_seconds", "window_seconds", "disable", "manual_redelivery_seconds", "source", "notes"} {
		if _, ok := p[k]; !ok {
			t.Errorf("policies show --format json lacks %q", k)
		}
	}
	if p["timeout_seconds"] != 20.0 {
		t.Errorf("timeout_seconds %v, want the override 20", p["timeout_seconds"])
	}
	code, out, _ = runCLI(t, dir, "policies", "--format", "markdown")
	if code != 0 || !strings.Contains(out, "| `acme` | svix | 2 |") {
		t.Errorf("exit %d; the markdown list lacks the custom policy:\n%s", code, out)
	}
	code, _, errs = runCLI(t, dir, "run", "--provider", "acme", "--dry-run", "--events", "2")
	if code != 0 {
		t.Errorf("run --provider acme: exit %d: %s", code, errs)
	}
	os.WriteFile(filepath.Join(dir, "bad.yaml"), []byte("policies:\n  stripe: {timeout: 20x}\n"), 0o644)
	code, _, errs = runCLI(t, dir, "policies", "--config", "bad.yaml")
	if code != exitBadInput || !strings.Contains(errs, "bad.yaml:2") || !strings.Contains(errs, "policies.stripe.timeout") || !strings.Contains(errs, "20x") {
		t.Errorf("exit %d, stderr %q: want exit 2 naming file, key and value", code, errs)
	}
	code, _, errs = runCLI(t, dir, "policies", "show", "stripe", "--format", "yaml")
	if code != exitBadInput || !strings.Contains(errs, "markdown") {
		t.Errorf("--format yaml: exit %d, %q", code, errs)
	}
}
