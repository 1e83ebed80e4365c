package main

import (
	"os"
	"strings"
	"testing"

	"github.com/retrysim/retrysim/report"
)

// TestReadmeDescribesEveryGate: the README's list of --fail-on gates
// holds each gate the command takes, so a gate added to report.Gates is
// not left out of what a newcomer reads first.
func TestReadmeDescribesEveryGate(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range report.Gates() {
		if !strings.Contains(string(b), "\n- `"+string(g)+"`: ") {
			t.Errorf("README.md does not describe the gate %s (a line \"- `%s`: …\")", g, g)
		}
	}
}
