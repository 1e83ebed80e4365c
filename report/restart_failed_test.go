package report_test

import (
	"bytes"
	"encoding/xml"
	"strings"
	"testing"
	"time"

	"github.com/retrysim/retrysim/report"
	"github.com/retrysim/retrysim/simulator"
)

// A restart that failed stopped its run: the report says where and why in
// place of the plain interruption, counts only the restarts that worked,
// and the command's closing words name the run.
func TestFailedRestartStoppedTheRun(t *testing.T) {
	s := newRecStream(3)
	s.attempt(0, 1, 0, simulator.Delivered, 200, true, ms).fate(0, simulator.FateDelivered)
	restart := func(n int, at time.Duration, err string) {
		r := s.base(simulator.KindRestart)
		r.Restart, r.Time, r.Error = n, t0.Add(at), err
		s.recs = append(s.recs, r)
	}
	const why = "demo handler: listening again on 127.0.0.1:40661: bind: address already in use"
	restart(1, 15*time.Minute, "")
	restart(2, 30*time.Minute, why)
	s.fate(1, simulator.FateInterrupted)
	runs, err := report.Summarize(s.end(nil, true))
	if err != nil {
		t.Fatal(err)
	}
	r := runs[0]
	if len(r.Restarts) != 1 || r.RestartFailed == nil || r.RestartFailed.At != 30*time.Minute || r.RestartFailed.Error != why {
		t.Fatalf("restarts %v, failed %+v; want one restart at +15m and the one at +30m failed", r.Restarts, r.RestartFailed)
	}
	text, md, js := renderAll(t, &report.Report{Runs: runs, Width: -1})
	stopped := "the handler could not be restarted at +30m (" + why + "), so the run stopped there"
	if !strings.Contains(text, "STOPPED: "+stopped) || strings.Contains(text, "INTERRUPTED") {
		t.Errorf("text report:\n%s", text)
	}
	if !strings.Contains(text, "handler restarted once (killed and started again) at +15m\n") {
		t.Errorf("text report counts the failed restart:\n%s", text)
	}
	if !strings.Contains(md, "**STOPPED**: "+mdEscape(stopped)) {
		t.Errorf("markdown report:\n%s", md)
	}
	if !strings.Contains(js, `"restart_failed": {`) || !strings.Contains(js, `"at_seconds": 1800,`) {
		t.Errorf("JSON report:\n%s", js)
	}
	// What the stop cut short is said as the stop, not as an interrupt;
	// and an oracle that failed was the handler, down.
	if !strings.Contains(text, "delivered 1/3 events (stopped at the failed restart when 2 had started, 1 of them unfinished)") {
		t.Errorf("text report's delivered line:\n%s", text)
	}
	g := report.CheckGates(runs, []report.Gate{report.GateLostEvents}, report.GateOptions{})[0]
	if want := "the run stopped at +30m, where the handler could not be restarted, so losses cannot be ruled out"; !strings.HasPrefix(g.Message, want) {
		t.Errorf("lost-events: %q, want it to begin %q", g.Message, want)
	}
	r.EffectsProblem = "GET http://127.0.0.1:9/_retrysim/effects: connection refused"
	if got := r.Judge(); got.Reason == report.ReasonOracleError {
		text, _, _ := renderAll(t, &report.Report{Runs: runs, Width: -1})
		if !strings.Contains(text, "the effects oracle did not answer (GET http://127.0.0.1:9/_retrysim/effects: connection refused); it was read after the handler could not be restarted at +30m, and an oracle the handler serves was down with it") {
			t.Errorf("an oracle that failed after the failed restart:\n%s", text)
		}
	} else {
		t.Errorf("a run whose oracle failed is judged %s, want %s", got.Reason, report.ReasonOracleError)
	}
	if got, want := report.StoppedByRestart(runs), "stripe: the handler could not be restarted at +30m: "+why+"; the run stopped there"; !strings.HasPrefix(got, want) {
		t.Errorf("StoppedByRestart = %q, want it to begin %q", got, want)
	}
	// Each run a failed restart stopped is named, a line each.
	other := *r
	other.Policy = "shopify"
	if got := report.StoppedByRestart([]*report.Summary{r, &other}); strings.Count(got, "the handler could not be restarted") != 2 || !strings.Contains(got, "\nshopify: ") {
		t.Errorf("StoppedByRestart of two stopped runs = %q, want a line for each", got)
	}
	if report.StoppedByRestart(runs[:0]) != "" {
		t.Error("StoppedByRestart speaks of no run")
	}
}

// A timeline's title says a run a failed restart stopped was stopped
// there, as the text report's STOPPED line does, and not that it was
// interrupted; among several runs it names the one, and an interrupt of
// another is said beside it.
func TestStoppedRunsTimelineTitle(t *testing.T) {
	// stopped is a run of 3 events whose handler could not be restarted
	// at +30m, when 2 had started; ended a run of 3 delivered in full,
	// cut the same run interrupted when 2 had started.
	stopped := func(policy string) []simulator.Record {
		s := newRecStream(3)
		s.attempt(0, 1, 0, simulator.Delivered, 200, true, ms).fate(0, simulator.FateDelivered)
		s.attempt(1, 1, 0, simulator.HTTPError, 500, true, ms)
		r := s.base(simulator.KindRestart)
		r.Restart, r.Time, r.Error = 1, t0.Add(30*time.Minute), "demo handler: listening again: bind: address already in use"
		s.recs = append(s.recs, r)
		return asPolicy(s.fate(1, simulator.FateInterrupted).end(nil, true), policy)
	}
	ended := func(policy string) []simulator.Record {
		s := newRecStream(3)
		for seq := range 3 {
			s.attempt(seq, 1, 0, simulator.Delivered, 200, true, ms).fate(seq, simulator.FateDelivered)
		}
		return asPolicy(s.end(nil, false), policy)
	}
	cut := func(policy string) []simulator.Record {
		s := newRecStream(3)
		s.attempt(0, 1, 0, simulator.Delivered, 200, true, ms).fate(0, simulator.FateDelivered)
		s.attempt(1, 1, 0, simulator.HTTPError, 500, true, ms).fate(1, simulator.FateInterrupted)
		return asPolicy(s.end(nil, true), policy)
	}
	for _, c := range []struct {
		name  string
		runs  [][]simulator.Record
		title string
	}{
		{"one run", [][]simulator.Record{stopped("stripe")},
			"STOPPED at the failed restart (+30m): 2 of 3 events started, 1 delivered"},
		{"beside a run that ended", [][]simulator.Record{stopped("stripe"), ended("shopify")},
			"STOPPED at a failed restart (stripe +30m): 5 of 6 events started, 4 delivered"},
		{"beside an interrupted run", [][]simulator.Record{stopped("stripe"), cut("shopify")},
			"INTERRUPTED · STOPPED at a failed restart (stripe +30m): 4 of 6 events started, 2 delivered"},
		{"two stopped", [][]simulator.Record{stopped("stripe"), stopped("shopify")},
			"STOPPED at failed restarts (stripe +30m, shopify +30m): 4 of 6 events started, 2 delivered"},
		{"interrupted alone", [][]simulator.Record{cut("stripe")},
			"INTERRUPTED: 2 of 3 events started, 1 delivered"},
	} {
		t.Run(c.name, func(t *testing.T) {
			agg := report.NewAggregator(report.WithTimeline(-1))
			defer agg.Close()
			for _, recs := range c.runs {
				for i := range recs {
					if err := agg.Add(&recs[i]); err != nil {
						t.Fatal(err)
					}
				}
			}
			var svg bytes.Buffer
			if err := report.WriteChart(&svg, &report.Report{Runs: agg.Runs()}, report.FormatSVG, report.ChartOptions{Chart: report.ChartTimeline}); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(svg.String(), c.title) {
				t.Errorf("the timeline's title does not say %q:\n%s", c.title, titleLines(svg.String()))
			}
		})
	}
}

// asPolicy is recs as the records of a run of policy.
func asPolicy(recs []simulator.Record, policy string) []simulator.Record {
	for i := range recs {
		recs[i].Provider, recs[i].Policy = policy, policy
	}
	return recs
}

// titleLines is the text of an SVG chart's first text elements, its
// title's lines among them, for a message.
func titleLines(svg string) string {
	var out []string
	dec := xml.NewDecoder(strings.NewReader(svg))
	for len(out) < 3 {
		tok, err := dec.Token()
		if err != nil {
			break
		}
		if cd, ok := tok.(xml.CharData); ok && strings.TrimSpace(string(cd)) != "" {
			out = append(out, strings.TrimSpace(string(cd)))
		}
	}
	return strings.Join(out, "\n")
}
