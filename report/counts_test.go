package report_test

import (
	"maps"
	"testing"

	"github.com/retrysim/retrysim/report"
	"github.com/retrysim/retrysim/simulator"
)

// The counts by outcome and by status read as the stream says, including
// an outcome and a status this version never writes (a later version's
// stream), and count nothing that did not happen.
func TestOutcomeAndStatusCounts(t *testing.T) {
	const later simulator.Outcome = "rate_limited"
	s := newRecStream(3)
	s.attempt(0, 1, 0, simulator.Timeout, 0, false, 0).
		attempt(0, 2, ms, later, 0, false, 0).
		attempt(0, 3, 2*ms, simulator.Delivered, 200, true, ms).
		attempt(1, 1, 0, simulator.HTTPError, 503, true, ms).
		attempt(1, 2, ms, later, 799, true, ms).
		attempt(1, 3, 2*ms, simulator.Delivered, 200, true, ms)
	recs := s.fate(0, simulator.FateDelivered).fate(1, simulator.FateDelivered).end(nil, false)
	runs, err := report.Summarize(recs)
	if err != nil {
		t.Fatal(err)
	}
	r := runs[0]
	for _, c := range []struct {
		name      string
		got, want map[simulator.Outcome]int
	}{
		{"outcomes", r.Outcomes, map[simulator.Outcome]int{simulator.Timeout: 1, later: 2, simulator.Delivered: 2, simulator.HTTPError: 1}},
		{"unreached", r.Unreached, map[simulator.Outcome]int{simulator.Timeout: 1, later: 1}},
	} {
		if !maps.Equal(c.got, c.want) {
			t.Errorf("%s: %v, want %v", c.name, c.got, c.want)
		}
	}
	if want := map[int]int{200: 2, 503: 1, 799: 1}; !maps.Equal(r.HandlerStatuses, want) {
		t.Errorf("statuses: %v, want %v", r.HandlerStatuses, want)
	}
}
