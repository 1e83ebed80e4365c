package report_test

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/retrysim/retrysim/report"
	"github.com/retrysim/retrysim/simulator"
)

// textOf is the text report of one run's records.
func textOf(t *testing.T, recs []simulator.Record) string {
	t.Helper()
	runs, err := report.Summarize(recs)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := report.WriteText(&buf, &report.Report{Runs: runs, Width: -1}); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// lineOf is the report's line that starts, indented, with prefix.
func lineOf(t *testing.T, text, prefix string) string {
	t.Helper()
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), prefix) {
			return strings.TrimSpace(l)
		}
	}
	t.Fatalf("no line starting %q in:\n%s", prefix, text)
	return ""
}

// The attempts' part of the delivered line counts attempts the provider
// got a 2xx for, and never calls them delivered: 3 of them for 2 events
// would read as more deliveries than events.
func TestAttemptsAreNotCountedAsDeliveredEvents(t *testing.T) {
	s := newRecStream(2)
	lostResponse(s, 0, time.Minute)
	s.attempt(1, 1, 0, simulator.Delivered, 200, true, ms).fate(1, simulator.FateDelivered)
	line := lineOf(t, textOf(t, s.end(nil, false)), "delivered ")
	if want := "delivered 2/2 events · 3 attempts: 2 answered 2xx in time · lost_response 1"; line != want {
		t.Errorf("the delivered line is\n%q, want\n%q", line, want)
	}
}

// An interrupted run's delivered line counts the events its header names,
// and says how far the run got.
func TestInterruptedRunCountsThePlannedEvents(t *testing.T) {
	for _, c := range []struct {
		name  string
		recs  []simulator.Record
		want  string
		title string
	}{
		{"before any event started", newRecStream(20).end(nil, true),
			"delivered 0/20 events (interrupted before any had started)",
			""}, // no attempt, no timeline to draw
		{"with events in flight", func() []simulator.Record {
			s := newRecStream(20)
			s.attempt(0, 1, 0, simulator.Delivered, 200, true, ms).fate(0, simulator.FateDelivered)
			s.attempt(1, 1, 0, simulator.LostResponse, 200, true, ms).fate(1, simulator.FateInterrupted)
			return s.end(nil, true)
		}(), "delivered 1/20 events (interrupted when 2 had started, 1 of them unfinished)",
			"INTERRUPTED: 2 of 20 events started, 1 delivered"},
	} {
		t.Run(c.name, func(t *testing.T) {
			text := textOf(t, c.recs)
			if !strings.Contains(lineOf(t, text, "retrysim · "), "· 20 events") {
				t.Fatalf("the header does not name the 20 events planned:\n%s", text)
			}
			if line := lineOf(t, text, "delivered "); !strings.HasPrefix(line, c.want+" · ") {
				t.Errorf("the delivered line is\n%q, want it to start\n%q", line, c.want)
			}
			if c.title == "" {
				return
			}
			// The timeline's title: the events never started are not lost.
			agg := report.NewAggregator(report.WithTimeline(-1))
			defer agg.Close()
			for i := range c.recs {
				if err := agg.Add(&c.recs[i]); err != nil {
					t.Fatal(err)
				}
			}
			var svg bytes.Buffer
			if err := report.WriteChart(&svg, &report.Report{Runs: agg.Runs()}, report.FormatSVG, report.ChartOptions{Chart: report.ChartTimeline}); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(svg.String(), c.title) {
				t.Errorf("the timeline's title does not say %q", c.title)
			}
		})
	}
}
