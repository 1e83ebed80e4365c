package advice

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/retrysim/retrysim/report"
)

// TestGatesHelpDescribesEveryGate: a gate added to report.Gates without words
// would be listed in --help with nothing beside it; every line fits the
// width asked for.
func TestGatesHelpDescribesEveryGate(t *testing.T) {
	const width = 90
	help := GatesHelp(width)
	for _, g := range report.Gates() {
		if gateHelp[g] == "" {
			t.Errorf("gate %s has no help", g)
		}
		if !strings.Contains(help, "  "+string(g)+"  ") {
			t.Errorf("gate %s is not listed:\n%s", g, help)
		}
	}
	for line := range strings.SplitSeq(help, "\n") {
		if n := utf8.RuneCountInString(line); n > width || !strings.HasPrefix(line, "  ") {
			t.Errorf("line of %d runes, or not indented: %q", n, line)
		}
	}
}
