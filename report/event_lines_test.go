package report_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/retrysim/retrysim/report"
	"github.com/retrysim/retrysim/simulator"
)

// TestEventLineCountsDuplicatesAsTheReport: the proxy's live line counts
// duplicates as the report does. An arrival the handler refused with a 4xx
// before it took the event in (a secret not yet configured, say) is no
// duplicate: refused, then delivered, then delivered again is one.
func TestEventLineCountsDuplicatesAsTheReport(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	lines := report.NewEventLines(&out, func(seq int) string {
		if seq == 2 {
			return "invoice.paid\x1b[2J"
		}
		return ""
	})
	for i, status := range []int{401, 200, 200} {
		lines.Add(&simulator.Record{Kind: simulator.KindAttempt, EventID: "evt_1", Seq: 0, Attempt: i + 1, Answer: simulator.Answer{Reached: true, HandlerStatus: status}})
	}
	lines.Add(&simulator.Record{Kind: simulator.KindEvent, EventID: "evt_1", Seq: 0, EventFacts: simulator.EventFacts{Attempts: 3, Fate: simulator.FateDelivered}})
	lines.Add(&simulator.Record{Kind: simulator.KindAttempt, EventID: "evt_2", Seq: 1, Attempt: 1, Answer: simulator.Answer{Reached: true, HandlerStatus: 403}})
	lines.Add(&simulator.Record{Kind: simulator.KindEvent, EventID: "evt_2", Seq: 1, EventFacts: simulator.EventFacts{Attempts: 1, Fate: simulator.FateStopped}})
	lines.Add(&simulator.Record{Kind: simulator.KindEvent, EventID: "evt_3", Seq: 2, EventFacts: simulator.EventFacts{Attempts: 1, Fate: simulator.FateDelivered}})
	got := out.String()
	for _, want := range []string{"evt_1 (type not given) · 3 attempts · delivered · 1 duplicate reached your handler\n", "evt_2 (type not given) · 1 attempt · stopped · no duplicate\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("event lines:\n%s\nwant a line %q", got, want)
		}
	}
	if strings.Contains(got, "\x1b") {
		t.Errorf("the sender's event type reached the terminal unescaped:\n%q", got)
	}
}
