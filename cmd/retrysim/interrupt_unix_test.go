//go:build unix

package main

import (
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/retrysim/retrysim/simulator"
)

// TestSignalTwiceAtOnceIsOneInterrupt: coreutils' timeout sends SIGTERM
// to the process and then to its group; the two are one interrupt, so the
// run still finishes the attempt in flight and writes its report and
// results. 20 times in a row: the two signals race.
func TestSignalTwiceAtOnceIsOneInterrupt(t *testing.T) {
	t.Parallel()
	bin := buildBinary(t)
	for i := range 20 {
		dir := t.TempDir()
		results := filepath.Join(dir, "attempts.jsonl")
		g := newGate(t)
		cmd, stderr, stdout := startBinary(t, bin, heldRunArgs(g.url, results), func(c *exec.Cmd) {
			c.Dir = dir
			c.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		})
		waitFor(t, g.arrived, "the first attempt to reach the handler")
		syscall.Kill(cmd.Process.Pid, syscall.SIGTERM)
		syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
		waitForLine(t, stderr, "finishing the attempts in flight")
		g.open()
		code, errText := exitCode(t, cmd, stderr)
		if code != exitInterrupted || strings.Contains(errText, "interrupted again") {
			t.Fatalf("run %d: exit %d; stderr:\n%s", i+1, code, errText)
		}
		if !strings.Contains(stdout.String(), "INTERRUPTED") {
			t.Fatalf("run %d: no partial report:\n%s", i+1, stdout.String())
		}
		recs := readResults(t, results)
		if end := recs[len(recs)-1]; end.Kind != simulator.KindEnd || !end.Interrupted {
			t.Fatalf("run %d: the results end with %+v", i+1, end)
		}
	}
}
