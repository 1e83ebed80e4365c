package advice_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/retrysim/retrysim/report"
	"github.com/retrysim/retrysim/report/advice"
	"github.com/retrysim/retrysim/simulator"
	"github.com/retrysim/retrysim/simulator/proxy"
)

// TestEverySettingIsSpelled: every setting the reports' advice may name is
// spelled as a flag, not left the Go way, and no two as the same flag.
// (cmd/retrysim's tests check that each flag exists.)
func TestEverySettingIsSpelled(t *testing.T) {
	seen := map[string]simulator.Setting{}
	for _, s := range append(report.Settings(), proxy.SettingCaptures) {
		got := advice.Flag(s)
		if !strings.HasPrefix(got, "--") {
			t.Errorf("setting %s is spelled %q, not as a flag", s, got)
		}
		if other, ok := seen[got]; ok {
			t.Errorf("settings %s and %s are both spelled %q", other, s, got)
		}
		seen[got] = s
	}
}

// TestTargetNamesTheFlag: a remote target's refusal names --allow-remote
// and still matches what it wraps; any other error is left as it is.
func TestTargetNamesTheFlag(t *testing.T) {
	err := simulator.CheckTarget(context.Background(), "http://192.0.2.1/hook", false)
	if err == nil {
		t.Skip("a remote target is allowed here")
	}
	spelled := advice.Target(err)
	if !strings.Contains(spelled.Error(), "--allow-remote") || !errors.Is(spelled, err) {
		t.Errorf("spelled %q, errors.Is %v", spelled, errors.Is(spelled, err))
	}
	plain := errors.New("boom")
	if advice.Target(plain) != plain {
		t.Error("an error that is not a remote target was changed")
	}
}
