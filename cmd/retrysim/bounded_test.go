//go:build linux

package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestInputsAreBounded gives /dev/zero as each input the commands read
// whole, to the binary run under a 3 GiB address-space limit: each is
// refused with exit 2 after reading a little past its cap, where reading
// it whole would run out of memory.
func TestInputsAreBounded(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip(err)
	}
	bin := buildBinary(t)
	for _, c := range []struct {
		name  string
		args  []string
		stdin bool
		says  string
	}{
		{"config", []string{"run", "--dry-run", "--config", "/dev/zero"}, false, "config /dev/zero: /dev/zero is larger than 4 MiB"},
		{"scenario", []string{"run", "--dry-run", "--scenario", "/dev/zero"}, false, "/dev/zero is larger than 1 MiB: not a scenario"},
		{"capture", []string{"replay", "--request", "/dev/zero", "--url", "http://127.0.0.1:9/x"}, false, "/dev/zero is larger than 32 MiB"},
		{"capture on stdin", []string{"replay", "--request", "-", "--url", "http://127.0.0.1:9/x"}, true, "stdin is larger than 32 MiB"},
		{"CA file", []string{"run", "--url", "http://127.0.0.1:9/x", "--ca", "/dev/zero"}, false, "--ca: /dev/zero is larger than 4 MiB"},
		{"results stream", []string{"report", "/dev/zero"}, false, "line 1: longer than 16 MiB"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			cmd := exec.Command("/bin/sh", append([]string{"-c", `ulimit -v 3145728 && exec "$0" "$@"`, bin}, c.args...)...)
			cmd.Dir = t.TempDir()
			if c.stdin {
				zero, err := os.Open("/dev/zero")
				if err != nil {
					t.Fatal(err)
				}
				defer zero.Close()
				cmd.Stdin = zero
			}
			out, err := cmd.CombinedOutput()
			if cmd.ProcessState == nil {
				t.Fatalf("did not run: %v", err)
			}
			if code := cmd.ProcessState.ExitCode(); code != exitBadInput || !strings.Contains(string(out), c.says) {
				t.Errorf("exit %d, want 2 saying %q:\n%.2000s", code, c.says, out)
			}
		})
	}
}
