package report_test

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/retrysim/retrysim/policies/policytest"
	"github.com/retrysim/retrysim/report"
	"github.com/retrysim/retrysim/scenarios/scenariotest"
	"github.com/retrysim/retrysim/simulator"
)

// outageRun is shopify under outage-6h, 200 events modelled: 33 delivered
// before the endpoint is disabled and 167 lost to it, most never sent.
func outageRun(t *testing.T, opts ...report.Option) *report.Report {
	t.Helper()
	return modelRun(t, "shopify", "outage-6h", 200, opts...)
}

func modelRun(t *testing.T, policy, scenario string, events int, opts ...report.Option) *report.Report {
	t.Helper()
	pol := policytest.Lookup(t, policy)
	sc := scenariotest.Lookup(t, scenario)
	agg := report.NewAggregator(opts...)
	t.Cleanup(func() { agg.Close() })
	if _, err := simulator.Run(context.Background(), simulator.Config{
		Policy: pol, Scenario: sc, DryRun: true, Events: events, Seed: 1, RunID: "sample", Sink: agg.Add,
	}); err != nil {
		t.Fatal(err)
	}
	return &report.Report{Runs: agg.Runs()}
}

// A sample shows every kind of fate the run had, and counts each kind as
// the totals do, however many timelines were kept.
func TestSampleShowsEveryKind(t *testing.T) {
	for _, keep := range []int{report.DefaultTimeline, -1} {
		for _, n := range []int{5, report.DefaultTimeline, report.DefaultChartRows} {
			t.Run(fmt.Sprintf("keep %d, show %d", keep, n), func(t *testing.T) {
				r := outageRun(t, report.WithTimeline(keep)).Runs[0]
				if r.LostToDisable < 100 || r.Delivered == 0 {
					t.Fatalf("the run is not the one this test is about: %d lost to the disable, %d delivered", r.LostToDisable, r.Delivered)
				}
				sh, err := r.Sample(n)
				if err != nil {
					t.Fatal(err)
				}
				if len(sh.Events) != n {
					t.Errorf("%d events shown, want %d", len(sh.Events), n)
				}
				totals := map[report.FateKind]int{}
				for _, k := range sh.Kinds {
					totals[k.Kind] = k.Total
					if k.Shown == 0 {
						t.Errorf("no event %s shown of %d", k.Kind, k.Total)
					}
				}
				if totals[report.KindLostToDisable] != r.LostToDisable {
					t.Errorf("%d lost to the disable in the sample's counts, %d in the run", totals[report.KindLostToDisable], r.LostToDisable)
				}
				if d := totals[report.KindDelivered] + totals[report.KindLate]; d != r.Delivered {
					t.Errorf("%d delivered in the sample's counts, %d in the run", d, r.Delivered)
				}
				lost, neverSent := 0, 0
				for _, ev := range sh.Events {
					if ev.Fate == simulator.FateDisabled {
						lost++
						if len(ev.Attempts) == 0 {
							neverSent++
						}
					}
				}
				if lost == 0 || neverSent == 0 {
					t.Errorf("%d of the events shown lost to the disable, %d of them never sent", lost, neverSent)
				}
			})
		}
	}
}

// The verbose text says which kinds its timeline shows and how many of
// each it leaves out, and the JSON lists every event, those never sent
// included.
func TestSampleInTextAndJSON(t *testing.T) {
	rep := outageRun(t, report.WithTimeline(report.DefaultTimeline))
	rep.Verbose, rep.Timeline = true, report.DefaultTimeline
	var buf bytes.Buffer
	if err := report.WriteText(&buf, rep); err != nil {
		t.Fatal(err)
	}
	text := strings.Join(strings.Fields(buf.String()), " ")
	r := rep.Runs[0]
	for _, want := range []string{
		fmt.Sprintf("timeline of 10 of %d events", r.Events),
		fmt.Sprintf("of %d lost to the disable", r.LostToDisable),
		"never sent ✗ endpoint disabled",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the text lacks %q:\n%s", want, buf.String())
		}
	}

	rep = outageRun(t, report.WithTimeline(report.Keep(report.FormatJSON, false, false)))
	buf.Reset()
	if err := report.WriteJSON(&buf, rep); err != nil {
		t.Fatal(err)
	}
	js := buf.String()
	if got := strings.Count(js, `"fate": "disabled"`); got != rep.Runs[0].LostToDisable {
		t.Errorf("the JSON lists %d events lost to the disable, the run %d", got, rep.Runs[0].LostToDisable)
	}
	if got := strings.Count(js, `"fate": `); got != rep.Runs[0].Events {
		t.Errorf("the JSON lists %d events of %d", got, rep.Runs[0].Events)
	}
	if !strings.Contains(js, `"events_complete": true`) {
		t.Error("the JSON does not say its events are complete")
	}
}

// When an event is of several kinds (lost to the disable and never sent),
// the kinds' counts add up to more than the events, and the sample's line
// says an event counts in each; when none is, it says nothing of the kind.
func TestSampleSaysAnEventCountsInEachOfItsKinds(t *testing.T) {
	const note = "shown by kind (an event of several kinds counts in each): "
	for _, c := range []struct {
		scenario string
		overlap  bool
	}{{"happy", false}, {"outage-6h", true}} {
		t.Run(c.scenario, func(t *testing.T) {
			rep := modelRun(t, "shopify", c.scenario, 40, report.WithTimeline(-1))
			rep.Verbose, rep.Timeline = true, 5
			sh, err := rep.Runs[0].Sample(rep.Timeline)
			if err != nil {
				t.Fatal(err)
			}
			shown, total := 0, 0
			for _, k := range sh.Kinds {
				shown += k.Shown
				total += k.Total
			}
			if overlap := shown > len(sh.Events) || total > sh.Of; overlap != c.overlap {
				t.Fatalf("the kinds count %d events shown of %d, %d of %d in the run: not the run this test is about", shown, len(sh.Events), total, sh.Of)
			}
			var buf bytes.Buffer
			if err := report.WriteText(&buf, rep); err != nil {
				t.Fatal(err)
			}
			text := strings.Join(strings.Fields(buf.String()), " ")
			if got := strings.Contains(text, note); got != c.overlap {
				t.Errorf("the text says an event counts in each of its kinds: %v, want %v:\n%s", got, c.overlap, buf.String())
			}
			if !strings.Contains(text, "shown by kind") {
				t.Errorf("the text does not say which kinds its timeline shows:\n%s", buf.String())
			}
		})
	}
}

// A replayed request an attack sent on its own id, which the handler
// processed twice, is no event of the run: a sample counts only the
// events processed more than once, and still counts the events reached
// again in full (the replay was taken off them).
func TestSampleCountsEventsNotReplays(t *testing.T) {
	s := newSigStream("twilio", 15*time.Second)
	s.recs[0].Events = 4
	reached := func(seq int, n int, outcome simulator.Outcome, status int) simulator.Record {
		return simulator.Record{Kind: simulator.KindAttempt, EventID: "evt_" + string(rune('a'+seq)), Seq: seq, Attempt: n, Time: streamStart.Add(time.Duration(n) * time.Minute),
			Answer: simulator.Answer{Status: status, HandlerStatus: 200, Reached: true}, AttemptFacts: simulator.AttemptFacts{Outcome: outcome}}
	}
	// evt_a: processed twice after a lost answer; evt_b: reached again,
	// processed once; evt_c, evt_d: delivered once.
	s.add(reached(0, 1, simulator.LostResponse, 0)).add(reached(0, 2, simulator.Delivered, 200))
	s.add(reached(1, 1, simulator.LostResponse, 0)).add(reached(1, 2, simulator.Delivered, 200))
	s.attempt(2, time.Millisecond).attempt(3, time.Millisecond)
	for seq, n := range []int{2, 2, 1, 1} {
		s.add(simulator.Record{Kind: simulator.KindEvent, EventID: "evt_" + string(rune('a'+seq)), Seq: seq, Time: streamStart.Add(3 * time.Minute),
			EventFacts: simulator.EventFacts{Attempts: n, Fate: simulator.FateDelivered}})
	}
	s.attack("replayed", "replay_1", 200, func(r *simulator.Record) { r.Undetectable, r.OriginalStatus = "no timestamp", 200 })
	s.effects["evt_a"], s.effects["evt_b"], s.effects["evt_c"], s.effects["evt_d"], s.effects["replay_1"] = 2, 1, 1, 1, 2
	r := s.run(t)
	if got := r.Offenders(); len(got) != 2 {
		t.Fatalf("offenders %v, want evt_a and the replay", got)
	}
	sh, err := r.Sample(1)
	if err != nil {
		t.Fatal(err)
	}
	totals := map[report.FateKind]int{}
	for _, k := range sh.Kinds {
		totals[k.Kind] = k.Total
	}
	if totals[report.KindReprocessed] != 1 || totals[report.KindDuplicated] != 1 {
		t.Errorf("the sample counts %d events processed more than once and %d reached again, want 1 and 1 (evt_a, evt_b): %+v", totals[report.KindReprocessed], totals[report.KindDuplicated], sh.Kinds)
	}
	for _, k := range sh.Missing() {
		if k == report.KindReprocessed {
			t.Errorf("the sample says it kept none %s to show", k)
		}
	}
}
