package report_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/retrysim/retrysim/report"
	"github.com/retrysim/retrysim/scenarios"
)

// TestWriteScenarios: built-ins say so; a config file's own scenario names
// the file, its text escaped before it reaches a terminal.
func TestWriteScenarios(t *testing.T) {
	var out bytes.Buffer
	list := []scenarios.Listed{{Name: "outage", Description: "down"}, {Name: "mine\x1b[2J", Description: "ours", Own: true}}
	if err := report.WriteScenarios(&out, list, "retrysim.yaml"); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	for _, want := range []string{"NAME", "outage", "built-in", "retrysim.yaml", "fault types:", "'retrysim scenarios show NAME' prints a scenario's YAML.\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("list lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "\x1b") {
		t.Errorf("a config file's text reached the terminal unescaped:\n%q", got)
	}
}
