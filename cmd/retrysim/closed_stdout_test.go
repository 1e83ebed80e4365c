//go:build unix

package main

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// `retrysim run --results - | head -1`: stdout closes under the run. That
// is a failed write (exit 3), not death by SIGPIPE (141), and the demo
// handler's temporary database is removed all the same.
func TestClosedStdoutIsAFailedWrite(t *testing.T) {
	t.Parallel()
	bin := buildBinary(t)
	tmp := t.TempDir()
	cmd := exec.Command(bin, "run", "--provider", "stripe", "--scenario", "happy", "--events", "300", "--results", "-")
	cmd.Dir, cmd.Env = t.TempDir(), append(os.Environ(), "TMPDIR="+tmp)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill() })
	if _, err := bufio.NewReader(out).ReadString('\n'); err != nil { // head -1
		t.Fatal(err)
	}
	out.Close()
	err = cmd.Wait()
	if code := cmd.ProcessState.ExitCode(); code != exitWrite {
		t.Fatalf("exit %d (%v), want %d: a closed stdout is an output that failed", code, err, exitWrite)
	}
	if left, _ := filepath.Glob(filepath.Join(tmp, "retrysim-*")); len(left) > 0 {
		t.Errorf("temporary files left behind: %v", left)
	}
}
