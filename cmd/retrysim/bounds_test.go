package main

import (
	"bytes"
	"os/exec"
	"strings"
	"syscall"
	"testing"
)

// TestBadInputExits2 gives each flag a value it cannot take: the command
// exits 2 before running anything, with one line that names the flag and
// the bad value (never a secret's value) and says what is valid.
func TestBadInputExits2(t *testing.T) {
	cases := []struct {
		name string
		args []string
		says []string
	}{
		{"too many events", []string{"--events", "10000001"}, []string{"--events", "10000001", "1..10000000"}},
		{"no events", []string{"--events", "0"}, []string{"--events", "0", "1..10000000"}},
		{"negative events", []string{"--events", "-5"}, []string{"--events", "-5"}},
		{"events not a number", []string{"--events", "lots"}, []string{"--events", `"lots"`}},
		{"run too long", []string{"--over", "400d"}, []string{"--over", "400d", "at most 366d"}},
		{"run of no time", []string{"--over", "0"}, []string{"--over", "out of range"}},
		{"duration garbage", []string{"--over", "soon"}, []string{"--over", `"soon"`, "30s, 5m"}},
		{"too much concurrency", []string{"--concurrency", "5000"}, []string{"--concurrency", "5000", "1..4096"}},
		{"retries over the schedule", []string{"--provider", "twilio", "--retries", "9"}, []string{"--retries", "0..3", "9"}},
		{"retries where not settable", []string{"--provider", "stripe", "--retries", "2"}, []string{"--retries", "stripe", "only: twilio"}},
		{"unknown provider", []string{"--provider", "acmepay"}, []string{"--provider", `"acmepay"`, "stripe"}},
		{"unknown scenario", []string{"--scenario", "meteor"}, []string{"--scenario", `"meteor"`, "flaky-network"}},
		{"unknown format", []string{"--format", "xml"}, []string{"--format", `"xml"`, "text, json"}},
		{"seed 0", []string{"--seed", "0"}, []string{"--seed", "0"}},
		{"bad TTL list", []string{"--ttl", "5m,forever"}, []string{"--ttl", `"forever"`}},
		{"empty TTL list", []string{"--ttl", ","}, []string{"--ttl", "empty list"}},
		{"rate not a number", []string{"--max-rps", "fast"}, []string{"--max-rps", `"fast"`, "auto"}},
		{"negative rate", []string{"--max-rps", "-3"}, []string{"--max-rps", `"-3"`}},
		{"secret without a provider", []string{"--secret", "whsec_abcdef"}, []string{"--secret #1", "provider=value"}},
		{"secret for an unknown provider", []string{"--secret", "acmepay=whsec_abcdef"}, []string{"--secret #1", `"acmepay"`, "stripe"}},
		{"URL and dry run", []string{"--dry-run", "--url", "http://127.0.0.1:9/"}, []string{"--dry-run", "--url"}},
		{"not an HTTP URL", []string{"--url", "ftp://127.0.0.1/"}, []string{"--url", `"ftp://127.0.0.1/"`}},
		{"unknown demo mode", []string{"--demo", "careless"}, []string{"--demo", `"careless"`, "naive"}},
		{"unknown flag", []string{"--evnets", "3"}, []string{"--evnets"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := runCLI(t, t.TempDir(), append([]string{"run"}, tc.args...)...)
			if code != exitBadInput {
				t.Fatalf("exit %d, want %d; stderr:\n%s", code, exitBadInput, stderr)
			}
			if stdout != "" {
				t.Errorf("something ran: stdout\n%s", stdout)
			}
			for _, s := range tc.says {
				if !strings.Contains(stderr, s) {
					t.Errorf("stderr does not say %q:\n%s", s, stderr)
				}
			}
			if strings.Contains(stderr, "whsec_abcdef") {
				t.Errorf("stderr repeats the secret:\n%s", stderr)
			}
			if n := strings.Count(strings.TrimSpace(stderr), "\n"); n != 0 {
				t.Errorf("want one line, got %d:\n%s", n+1, stderr)
			}
		})
	}
}

// TestMillionEventsDryRun: the cap on --events is far above real use; a
// million events in a dry run completes, in bounded memory.
func TestMillionEventsDryRun(t *testing.T) {
	t.Parallel()
	bin := buildBinary(t)
	// The text report: the JSON one lists every event's attempts, so its
	// memory grows with the run by design.
	cmd := exec.Command(bin, "run", "--dry-run", "--events", "1000000", "--scenario", "flaky-network", "--no-timeline")
	cmd.Dir = t.TempDir()
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	if !strings.Contains(stdout.String(), "delivered 1000000/1000000 events") {
		t.Fatalf("report does not show a million events delivered:\n%s", stdout.String())
	}
	// The engine keeps only the events in flight; the report keeps a few
	// numbers per attempt. Keeping every record would take gigabytes.
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		const limit = 512 << 10 // KiB
		if ru.Maxrss > limit {
			t.Errorf("peak memory %d MiB, want under %d MiB", ru.Maxrss>>10, limit>>10)
		}
		t.Logf("1,000,000 events: peak memory %d MiB", ru.Maxrss>>10)
	}
}
