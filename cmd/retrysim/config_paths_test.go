package main

import (
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// A retrysim.yaml found in the working directory (an untrusted checkout)
// chooses no path retrysim writes to: results: and out: are left out and
// said on stderr, and nothing is written there. Named with --config, or
// given in the environment, they are taken. Through the built binary.
func TestImplicitConfigWritesNowhere(t *testing.T) {
	t.Parallel()
	bin := buildBinary(t)
	dir := t.TempDir()
	conf := "events: 1\nresults: written.jsonl\nout: [written.md]\n"
	if err := os.WriteFile(filepath.Join(dir, "retrysim.yaml"), []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	runIn := func(env []string, args ...string) (int, string) {
		t.Helper()
		return runBinaryIn(t, bin, dir, env, append([]string{"run", "--provider", "stripe", "--scenario", "happy", "--dry-run"}, args...)...)
	}

	code, stderr := runIn(nil)
	if code != 0 {
		t.Fatalf("exit %d; stderr:\n%s", code, stderr)
	}
	for _, key := range []string{"retrysim.yaml:2: results: ignored", "retrysim.yaml:3: out: ignored"} {
		if !strings.Contains(stderr, key) {
			t.Errorf("stderr does not say %q:\n%s", key, stderr)
		}
	}
	if left := leftovers(t, dir, "retrysim.yaml"); len(left) > 0 {
		t.Fatalf("an implicitly loaded retrysim.yaml made retrysim write %v", left)
	}

	// Named with --config, the file is trusted.
	if code, stderr := runIn(nil, "--config", "retrysim.yaml"); code != 0 || strings.Contains(stderr, "ignored") {
		t.Fatalf("with --config: exit %d; stderr:\n%s", code, stderr)
	}
	for _, f := range []string{"written.jsonl", "written.md"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("with --config, %s was not written: %v", f, err)
		}
	}

	// The environment is the user's own.
	if code, stderr := runIn([]string{"RETRYSIM_RESULTS=from-env.jsonl"}); code != 0 || strings.Contains(stderr, "results: ignored") {
		t.Fatalf("with RETRYSIM_RESULTS: exit %d; stderr:\n%s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "from-env.jsonl")); err != nil {
		t.Errorf("RETRYSIM_RESULTS was not written: %v", err)
	}
}

// A retrysim.yaml found in the working directory does not turn the
// loopback guard off: its allow-remote: is left out and said on stderr,
// so the remote url it names is refused before anything is sent (and a
// secret from the user's environment signs nothing for it). From the
// user's environment, allow-remote is taken. Through the built binary.
func TestImplicitConfigKeepsTheLoopbackGuard(t *testing.T) {
	t.Parallel()
	bin := buildBinary(t)
	dir := t.TempDir()
	// 192.0.2.1 is TEST-NET-1: never reachable, and never dialled here.
	conf := "events: 1\nurl: http://192.0.2.1:9/webhooks/stripe\nallow-remote: true\n"
	if err := os.WriteFile(filepath.Join(dir, "retrysim.yaml"), []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	runIn := func(env []string, args ...string) (int, string) {
		t.Helper()
		return runBinaryIn(t, bin, dir, env, append([]string{"run", "--provider", "stripe", "--scenario", "happy"}, args...)...)
	}

	code, stderr := runIn([]string{"RETRYSIM_SECRET_STRIPE=whsec_from_the_users_env"})
	if code != exitBadInput {
		t.Fatalf("exit %d, want %d (the remote url refused); stderr:\n%s", code, exitBadInput, stderr)
	}
	for _, want := range []string{"retrysim.yaml:3: allow-remote: ignored", "not a loopback"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr does not say %q:\n%s", want, stderr)
		}
	}
	if strings.Contains(stderr, "the loopback guard is off") {
		t.Errorf("stderr says the guard is off:\n%s", stderr)
	}

	// From the environment it is the user's own choice (sent here to a
	// loopback handler).
	srv := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	defer srv.Close()
	code, stderr = runIn([]string{"RETRYSIM_ALLOW_REMOTE=true"}, "--url", srv.URL+"/webhooks/stripe")
	if code != 0 || strings.Contains(stderr, "ignored") || !strings.Contains(stderr, "the loopback guard is off (allow-remote from RETRYSIM_ALLOW_REMOTE)") {
		t.Fatalf("with RETRYSIM_ALLOW_REMOTE: exit %d; stderr:\n%s", code, stderr)
	}
}

// runBinaryIn runs the built binary bin with args in dir, with env added
// to this process's environment, and returns its exit code and stderr.
func runBinaryIn(t *testing.T, bin, dir string, env []string, args ...string) (int, string) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir, cmd.Env = dir, append(os.Environ(), env...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	err := cmd.Run()
	if _, ok := err.(*exec.ExitError); err != nil && !ok {
		t.Fatal(err)
	}
	return cmd.ProcessState.ExitCode(), stderr.String()
}
