package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/retrysim/retrysim/report/outfile"
	"github.com/retrysim/retrysim/simulator/demo"
	"github.com/retrysim/retrysim/simulator/interrupt"
)

// TestExitNowRemovesDemoDatabase: exiting at once on a second interrupt
// skips every deferred call; the built-in demo handler's temporary SQLite
// directory is removed all the same.
func TestExitNowRemovesDemoDatabase(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	srv, err := startDemo(demo.Naive, "stripe", "whsec_exit_now_test_secret")
	if err != nil {
		t.Fatal(err)
	}
	defer srv.close()
	if left, _ := filepath.Glob(filepath.Join(tmp, "retrysim-demo-*")); len(left) != 1 {
		t.Fatalf("the demo made %v, want one temporary directory", left)
	}
	interrupt.RunExitNow()
	outfile.RemovePending()
	if left, _ := filepath.Glob(filepath.Join(tmp, "retrysim-demo-*")); len(left) != 0 {
		t.Errorf("left behind on exiting at once: %v", left)
	}
	if _, err := os.Stat(tmp); err != nil {
		t.Fatal(err)
	}
}
