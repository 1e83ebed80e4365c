package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/retrysim/retrysim/policies"
	"github.com/retrysim/retrysim/simulator"
	"github.com/retrysim/retrysim/simulator/proxy"
)

// TestProxyLineCountsDuplicatesAsTheReport: the proxy's live line counts
// duplicates as the report does. An arrival the handler refused with a 4xx
// before it took the event in (a secret not yet configured, say) is no
// duplicate: refused, then delivered, then delivered again is one.
func TestProxyLineCountsDuplicatesAsTheReport(t *testing.T) {
	t.Parallel()
	pol, err := policies.Lookup("stripe")
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	lines := newEventLines(&out, proxy.NewIntake(pol, "whsec_test", &out))
	for i, status := range []int{401, 200, 200} {
		lines.add(&simulator.Record{Kind: simulator.KindAttempt, Event: "evt_1", Seq: 0, Attempt: i + 1, Answer: simulator.Answer{Reached: true, HandlerStatus: status}})
	}
	lines.add(&simulator.Record{Kind: simulator.KindEvent, Event: "evt_1", Seq: 0, EventFacts: simulator.EventFacts{Attempts: 3, Fate: simulator.FateDelivered}})
	lines.add(&simulator.Record{Kind: simulator.KindAttempt, Event: "evt_2", Seq: 1, Attempt: 1, Answer: simulator.Answer{Reached: true, HandlerStatus: 403}})
	lines.add(&simulator.Record{Kind: simulator.KindEvent, Event: "evt_2", Seq: 1, EventFacts: simulator.EventFacts{Attempts: 1, Fate: simulator.FateStopped}})
	got := out.String()
	for _, want := range []string{"evt_1 (type not given) · 3 attempts · delivered · 1 duplicate reached your handler\n", "evt_2 (type not given) · 1 attempt · stopped · no duplicate\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("proxy lines:\n%s\nwant a line %q", got, want)
		}
	}
}
