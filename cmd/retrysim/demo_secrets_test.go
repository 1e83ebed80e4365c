package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestDemoTakesConfiguredSecrets: the demo expects the secret of
// RETRYSIM_SECRET_<PROVIDER>, and of the config's secrets:, as run signs
// with, so a run given the same environment is delivered, not refused
// with 401; neither secret is printed.
func TestDemoTakesConfiguredSecrets(t *testing.T) {
	t.Parallel()
	bin := buildBinary(t)
	const envSecret = "whsec_demo_env_secret_0123456789"
	const fileSecret = "ghsec_demo_config_secret_0123456789"
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "retrysim.yaml"), []byte("secrets:\n  github: "+fileSecret+"\n"), 0o644)
	env := append(os.Environ(), "RETRYSIM_SECRET_STRIPE="+envSecret)
	cmd := exec.Command(bin, "demo", "--mode", "idempotent", "--addr", "127.0.0.1:0")
	cmd.Dir, cmd.Env = dir, env
	outPipe, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	stdout := lines(outPipe)
	first := waitForLine(t, stdout, "demo handler (idempotent) on http://")
	base := strings.TrimSpace(first[strings.Index(first, "http://"):])
	var listing strings.Builder
	for l := range stdout {
		listing.WriteString(l + "\n")
		if strings.HasPrefix(strings.TrimSpace(l), "twilio") {
			break
		}
	}
	go func() {
		for range stdout {
		}
	}()
	if s := listing.String(); strings.Contains(s, envSecret) || strings.Contains(s, fileSecret) ||
		!strings.Contains(s, "from RETRYSIM_SECRET_STRIPE") || !strings.Contains(s, "from secrets: in retrysim.yaml") {
		t.Errorf("the demo's list of secrets:\n%s", s)
	}
	for _, p := range []string{"stripe", "github"} {
		// The retrysim in $PATH: this test binary (see TestMain).
		run := exec.Command("retrysim", "run", "--provider", p, "--scenario", "happy", "--events", "3", "--url", base+"/webhooks/"+p, "--format", "json")
		var out, errs strings.Builder
		run.Dir, run.Env, run.Stdout, run.Stderr = dir, env, &out, &errs
		err := run.Run()
		if err != nil || !strings.Contains(out.String(), `"delivered": 3`) {
			t.Errorf("%s: a run given the same environment: %v\n%s\n%.1500s", p, err, errs.String(), out.String())
		}
	}
}
