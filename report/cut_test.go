package report_test

import (
	"testing"

	"github.com/retrysim/retrysim/report"
	"github.com/retrysim/retrysim/simulator"
)

// TestRunsCut: a run whose end says interrupted is cut, interrupt or
// not; an interrupt cuts the runs only when one never started.
func TestRunsCut(t *testing.T) {
	summarize := func(interrupted bool) []*report.Summary {
		s := newRecStream(1)
		s.attempt(0, 1, 0, simulator.Delivered, 200, true, ms).fate(0, simulator.FateDelivered)
		runs, err := report.Summarize(s.end(nil, interrupted))
		if err != nil {
			t.Fatal(err)
		}
		return runs
	}
	whole, cut := summarize(false), summarize(true)
	for _, c := range []struct {
		name        string
		runs        []*report.Summary
		want        int
		interrupted bool
		cut         bool
	}{
		{"whole, no interrupt", whole, 1, false, false},
		{"whole, interrupted after its end", whole, 1, true, false},
		{"a run's end says interrupted", cut, 1, false, true},
		{"interrupted before the second run", whole, 2, true, true},
		{"fewer runs, no interrupt", whole, 2, false, false},
	} {
		if got := report.RunsCut(c.runs, c.want, c.interrupted); got != c.cut {
			t.Errorf("%s: cut %v, want %v", c.name, got, c.cut)
		}
	}
}
