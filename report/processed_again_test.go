package report_test

import (
	"strings"
	"testing"

	"github.com/retrysim/retrysim/report"
	"github.com/retrysim/retrysim/simulator"
)

// TestProcessedBeforeAndDuring: an event the handler processed once before
// the run and once during it was processed twice, and every writer says so
// the same way: an offender, and the timeline's mark.
func TestProcessedBeforeAndDuring(t *testing.T) {
	t.Parallel()
	s := newRecStream(2)
	s.attempt(0, 1, 0, simulator.Delivered, 200, true, 2*ms).fate(0, simulator.FateDelivered)
	lostResponse(s, 1, 0)
	before := s.base(simulator.KindEffects)
	before.EventID, before.Effects, before.EffectsBefore = eventID(0), 1, 1
	s.recs = append(s.recs, before)
	recs := s.end(map[string]int{eventID(1): 1}, false)

	agg := report.NewAggregator(report.WithTimeline(-1))
	for i := range recs {
		if err := agg.Add(&recs[i]); err != nil {
			t.Fatal(err)
		}
	}
	r := agg.Runs()[0]
	if got := r.ProcessedMoreThanOnce(eventID(0)); got != 2 {
		t.Errorf("processed once before the run and once during it: %d; want 2", got)
	}
	if got := r.ProcessedMoreThanOnce(eventID(1)); got != 0 {
		t.Errorf("processed once: %d; want 0", got)
	}
	if off := r.Offenders(); len(off) != 1 || off[0] != eventID(0) {
		t.Errorf("offenders %v; want [%s]", off, eventID(0))
	}
	text, _, _ := renderAll(t, &report.Report{Runs: []*report.Summary{r}, Timeline: 5, Verbose: true})
	if !strings.Contains(text, "✗ processed 2 times") {
		t.Errorf("the timeline does not mark %s as processed twice:\n%s", eventID(0), text)
	}
	var csv strings.Builder
	if err := report.WriteCSV(&csv, &report.Report{Runs: []*report.Summary{r}}); err != nil {
		t.Fatal(err)
	}
	rows := 0
	for _, line := range strings.Split(csv.String(), "\n") {
		if !strings.Contains(line, ","+eventID(0)+",") {
			continue
		}
		if rows++; !strings.HasSuffix(line, ",2,") {
			t.Errorf("the CSV row of %s does not say it was processed twice: %s", eventID(0), line)
		}
	}
	if rows == 0 {
		t.Errorf("the CSV has no row of %s:\n%s", eventID(0), csv.String())
	}
}
