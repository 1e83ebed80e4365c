package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Two commands run in one process each see only their own config file:
// its policies, its scenarios, and where its values came from. Nothing of
// the first file is left over for the second.
func TestConfigDoesNotOutliveItsCommand(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		t.Helper()
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	a := write("a.yaml", "events: 0\npolicies:\n  stripe-a: {base: stripe, schedule: {offsets: [0, 1h]}}\nscenarios:\n  calm-a: {name: calm-a, description: only in a.yaml, faults: []}\n")
	b := write("b.yaml", "policies:\n  stripe-b: {base: stripe, schedule: {offsets: [0, 2h]}}\n")
	cli := func(args ...string) (string, string, int) {
		t.Helper()
		var out, errb bytes.Buffer
		code := run(args, strings.NewReader(""), &out, &errb)
		return out.String(), errb.String(), code
	}

	if out, errOut, code := cli("policies", "--config", a); code != 0 || !strings.Contains(out, "stripe-a") {
		t.Fatalf("policies with a.yaml: exit %d, stripe-a missing:\n%s%s", code, out, errOut)
	}
	if out, errOut, code := cli("policies", "--config", b); code != 0 || strings.Contains(out, "stripe-a") || !strings.Contains(out, "stripe-b") {
		t.Errorf("policies with b.yaml: exit %d, want stripe-b and not a.yaml's stripe-a:\n%s%s", code, out, errOut)
	}
	if out, _, _ := cli("policies"); strings.Contains(out, "stripe-a") || strings.Contains(out, "stripe-b") {
		t.Errorf("policies with no config lists a config's policy:\n%s", out)
	}

	if out, errOut, code := cli("scenarios", "--config", a); code != 0 || !strings.Contains(out, "calm-a") {
		t.Fatalf("scenarios with a.yaml: exit %d, calm-a missing:\n%s%s", code, out, errOut)
	}
	if out, _, _ := cli("scenarios", "--config", b); strings.Contains(out, "calm-a") {
		t.Errorf("scenarios with b.yaml lists a.yaml's calm-a:\n%s", out)
	}
	if _, errOut, code := cli("run", "--dry-run", "--config", b, "--scenario", "calm-a"); code != exitBadInput || !strings.Contains(errOut, `--scenario: unknown scenario "calm-a"`) {
		t.Errorf("run --scenario calm-a with b.yaml: exit %d, want 2 and calm-a unknown:\n%s", code, errOut)
	}

	// a.yaml's events: 0 is blamed on a.yaml; the same value typed on the
	// command line of the next command is blamed on the flag alone.
	if _, errOut, code := cli("run", "--dry-run", "--config", a); code != exitBadInput || !strings.Contains(errOut, "a.yaml:1: events (--events): 0 is out of range") {
		t.Errorf("run with a.yaml: exit %d, want the error to name a.yaml:\n%s", code, errOut)
	}
	if _, errOut, code := cli("run", "--dry-run", "--config", b, "--events", "0"); code != exitBadInput || !strings.HasPrefix(errOut, "retrysim: --events: 0 is out of range") {
		t.Errorf("run --events 0 with b.yaml: exit %d, want the error to name the flag alone:\n%s", code, errOut)
	}
}
