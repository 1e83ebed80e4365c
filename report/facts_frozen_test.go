package report_test

import (
	"testing"
	"time"

	"github.com/retrysim/retrysim/report"
	"github.com/retrysim/retrysim/simulator"
)

// A run's facts are a value: what Runs returned mid-stream says what the
// records so far said, whatever the aggregator is given afterwards, and
// an event in flight then still counts among those that leaked past a
// TTL.
func TestRunsAreFrozen(t *testing.T) {
	s := newRecStream(2)
	s.attempt(0, 1, 0, simulator.LostResponse, 200, true, 3*ms).
		attempt(0, 2, 2*time.Hour, simulator.Delivered, 200, true, 2*ms)
	mid := len(s.recs)
	recs := s.fate(0, simulator.FateDelivered).
		attempt(1, 1, 0, simulator.Timeout, 0, true, 0).
		attempt(1, 2, time.Hour, simulator.Delivered, 200, true, 9*ms).
		fate(1, simulator.FateDelivered).
		end(map[string]int{"evt_a": 1, "evt_b": 2}, false)

	agg := report.NewAggregator(report.WithTimeline(-1))
	defer agg.Close()
	for i := range recs[:mid] {
		if err := agg.Add(&recs[i]); err != nil {
			t.Fatal(err)
		}
	}
	before := agg.Runs()[0]
	if got := before.TTL([]time.Duration{time.Hour}).Choices[0].LeakedEvents; got != 1 {
		t.Errorf("mid-stream, the event in flight leaked past a 1h TTL in %d events, want 1", got)
	}
	for i := range recs[mid:] {
		if err := agg.Add(&recs[mid+i]); err != nil {
			t.Fatal(err)
		}
	}
	after := agg.Runs()[0]

	if before.Attempts != 2 || before.Outcomes[simulator.Timeout] != 0 || before.Effects != nil || !before.Incomplete {
		t.Errorf("the mid-stream facts changed: %d attempts, %d timeouts, effects %v, incomplete %v; want 2, 0, none, true",
			before.Attempts, before.Outcomes[simulator.Timeout], before.Effects, before.Incomplete)
	}
	if n := before.TimelineCount(); n != 1 {
		t.Errorf("the mid-stream facts keep %d timelines, want 1", n)
	}
	for ev, err := range before.Timelines() {
		if err != nil {
			t.Fatal(err)
		}
		if len(ev.Attempts) != 2 || ev.Fate != "" {
			t.Errorf("the mid-stream timeline of %s has %d attempts and fate %q, want 2 and none yet", ev.ID, len(ev.Attempts), ev.Fate)
		}
	}
	if before.Percentile(100) != 3*time.Millisecond {
		t.Errorf("the mid-stream slowest answer is %v, want 3ms", before.Percentile(100))
	}
	if after.Attempts != 4 || after.Verdict() != report.NotIdempotent || after.Incomplete {
		t.Errorf("the facts at the end: %d attempts, verdict %s, incomplete %v; want 4, NOT IDEMPOTENT, complete", after.Attempts, after.Verdict(), after.Incomplete)
	}
}
