package report_test

import (
	"strings"
	"testing"

	"github.com/retrysim/retrysim/report"
	"github.com/retrysim/retrysim/simulator"
)

// An interrupted run's lost-events gate says what became of the events,
// with the figures the rest of the report gives: the events whose
// schedules the interrupt cut short were not delivered, those planned and
// never started were not sent, so no loss can be ruled out; it never
// says every event was delivered.
func TestLostEventsOnAnInterruptedRun(t *testing.T) {
	for _, tc := range []struct {
		name      string
		stream    *recStream
		delivered string // the report's own count
		gate      string
	}{
		{"cut short and never started",
			newRecStream(4).attempt(0, 1, 0, simulator.Delivered, 200, true, ms).fate(0, simulator.FateDelivered).
				attempt(1, 1, 0, simulator.HTTPError, 500, true, ms).fate(1, simulator.FateInterrupted),
			"delivered 1/4 events (interrupted when 2 had started, 1 of them unfinished)",
			"? lost-events the run was interrupted before its end, so losses cannot be ruled out: " +
				"1 of 2 events was not delivered before its schedule was cut short (1 was), and 2 of the 4 planned never started"},
		{"cut short",
			newRecStream(3).attempt(0, 1, 0, simulator.Delivered, 200, true, ms).fate(0, simulator.FateDelivered).
				attempt(1, 1, 0, simulator.HTTPError, 500, true, ms).fate(1, simulator.FateInterrupted).
				attempt(2, 1, 0, simulator.Timeout, 0, false, 0).fate(2, simulator.FateInterrupted),
			"delivered 1/3 events (interrupted: 2 unfinished)",
			"? lost-events the run was interrupted before its end, so losses cannot be ruled out: " +
				"2 of 3 events were not delivered before their schedules were cut short (1 was)"},
		{"never started",
			newRecStream(3).attempt(0, 1, 0, simulator.Delivered, 200, true, ms).fate(0, simulator.FateDelivered),
			"delivered 1/3 events (interrupted when 1 had started)",
			"? lost-events the run was interrupted before its end, so losses cannot be ruled out: " +
				"the one event that started was delivered, and 2 of the 3 planned never started"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			runs, err := report.Summarize(tc.stream.end(nil, true))
			if err != nil {
				t.Fatal(err)
			}
			rep := &report.Report{Runs: runs, Gates: report.CheckGates(runs, []report.Gate{report.GateLostEvents}, report.GateOptions{})}
			g := rep.Gates[0]
			if g.Status != report.GateUnchecked || g.Reason != report.GateEventsCutShort {
				t.Errorf("gate %s (%s), want %s (%s)", g.Status, g.Reason, report.GateUnchecked, report.GateEventsCutShort)
			}
			text, md, _ := renderAll(t, rep)
			words := strings.Join(strings.Fields(text), " ")
			if !strings.Contains(words, tc.delivered) {
				t.Errorf("the report does not say %q:\n%s", tc.delivered, text)
			}
			if !strings.Contains(words, tc.gate) {
				t.Errorf("the report's gate line is not\n%q:\n%s", tc.gate, text)
			}
			if msg := strings.TrimPrefix(tc.gate, "? lost-events "); !strings.Contains(unwrap(md), mdEscape(msg)) {
				t.Errorf("the markdown report does not say %q:\n%s", msg, md)
			}
		})
	}
}

// A run interrupted once every event it was to deliver had been
// delivered (the effects were settling) lost nothing: the gate still
// cannot vouch for it, and says so about events that all were delivered.
func TestLostEventsInterruptedAfterEveryDelivery(t *testing.T) {
	s := newRecStream(2).attempt(0, 1, 0, simulator.Delivered, 200, true, ms).fate(0, simulator.FateDelivered)
	runs, err := report.Summarize(lostResponse(s, 1, 0).end(nil, true))
	if err != nil {
		t.Fatal(err)
	}
	g := report.CheckGates(runs, []report.Gate{report.GateLostEvents}, report.GateOptions{})[0]
	want := "the run was interrupted before its end, so this cannot be vouched for: all 2 events were delivered"
	if g.Status != report.GateUnchecked || g.Reason != report.GateAllDelivered || g.Message != want {
		t.Errorf("gate %s (%s) %q\nwant %s (%s) %q", g.Status, g.Reason, g.Message, report.GateUnchecked, report.GateAllDelivered, want)
	}
}
