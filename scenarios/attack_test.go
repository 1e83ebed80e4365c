package scenarios_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/retrysim/retrysim/scenarios"
	"github.com/retrysim/retrysim/scenarios/scenariotest"
)

// TestForgedCatalogue: the built-in forged scenario sends every attack, each
// once per selected attempt, and names each once in Attacks.
func TestForgedCatalogue(t *testing.T) {
	s, err := scenarios.Lookup("forged")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, a := range s.Attacks() {
		names = append(names, a.Name())
	}
	want := []string{"bad-signature", "tampered-body (value)", "tampered-body (spacing)", "missing-signature", "stale-timestamp", "replayed"}
	if !slices.Equal(names, want) {
		t.Errorf("forged attacks %v, want %v", names, want)
	}
	for _, tc := range []struct {
		event, attempt int
		want           int
	}{{0, 1, 6}, {4, 1, 6}, {1, 1, 0}, {0, 2, 0}} {
		a := s.Decide(1, scenarios.Context{Event: tc.event, Attempt: tc.attempt})
		if len(a.Attacks) != tc.want || len(a.Faults) != 0 {
			t.Errorf("event %d attempt %d: %d attacks, faults %v; want %d attacks and the attempt itself untouched", tc.event, tc.attempt, len(a.Attacks), a.Faults, tc.want)
		}
	}
}

// TestTamperedBodyDrawsAChange: without change, each attack draws one from
// the seed, both occur, and the draw is marked as such.
func TestTamperedBodyDrawsAChange(t *testing.T) {
	s := scenariotest.Faults(t, "faults: [{type: tampered-body}]")
	seen := map[string]int{}
	for ev := range 40 {
		a := s.Decide(3, scenarios.Context{Event: ev, Attempt: 1})
		if len(a.Attacks) != 1 || !a.Attacks[0].Drawn {
			t.Fatalf("event %d: attacks %+v", ev, a.Attacks)
		}
		seen[a.Attacks[0].Change]++
		if again := s.Decide(3, scenarios.Context{Event: ev, Attempt: 1}); again.Attacks[0] != a.Attacks[0] {
			t.Fatalf("event %d: the draw changed between two calls", ev)
		}
	}
	if seen[scenarios.ChangeValue] == 0 || seen[scenarios.ChangeSpacing] == 0 {
		t.Errorf("changes drawn %v, want both", seen)
	}
	if _, err := scenarios.Decode("x.yaml", []byte("name: x\nfaults: [{type: tampered-body, change: reorder}]")); err == nil ||
		!strings.Contains(err.Error(), `change: "reorder" is not a change (valid: value, spacing)`) {
		t.Errorf("bad change: %v", err)
	}
}
