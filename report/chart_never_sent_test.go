package report_test

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/retrysim/retrysim/report"
	"github.com/retrysim/retrysim/simulator"
)

// An event an interrupt kept from its first attempt is no event the
// endpoint's disable kept back: the timeline marks it with no "never sent"
// glyph, whose legend would name a disable the run never had, on either
// axis. One lost to a disable still is.
func TestTimelineMarksNoInterruptedEventAsDisabled(t *testing.T) {
	for _, c := range []struct {
		fate        string
		interrupted bool
		legend      bool
	}{
		{simulator.FateInterrupted, true, false},
		{simulator.FateDisabled, false, true},
	} {
		s := newRecStream(3)
		s.attempt(0, 1, 0, simulator.Delivered, 200, true, ms).fate(0, simulator.FateDelivered)
		s.attempt(1, 1, 0, simulator.Delivered, 200, true, ms).fate(1, simulator.FateDelivered)
		s.fate(2, c.fate)
		s.recs[len(s.recs)-1].Time = t0.Add(3 * time.Minute)
		recs := s.end(nil, c.interrupted)
		agg := report.NewAggregator(report.WithTimeline(-1))
		for i := range recs {
			if err := agg.Add(&recs[i]); err != nil {
				t.Fatal(err)
			}
		}
		rep := &report.Report{Runs: agg.Runs()}
		for _, log := range []bool{false, true} {
			var svg bytes.Buffer
			if err := report.WriteChart(&svg, rep, report.FormatSVG, report.ChartOptions{Chart: report.ChartTimeline, Log: log}); err != nil {
				t.Fatal(err)
			}
			if got := strings.Contains(svg.String(), "never sent: endpoint disabled first"); got != c.legend {
				t.Errorf("an event never attempted, %s, log axis %v: the legend says \"never sent: endpoint disabled first\": %v, want %v", c.fate, log, got, c.legend)
			}
		}
		agg.Close()
	}
}
