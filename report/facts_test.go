package report_test

import (
	"strings"
	"testing"
	"time"

	"github.com/retrysim/retrysim/report"
	"github.com/retrysim/retrysim/simulator"
)

// TestDecisionsReadTheRecord: what the report decides comes from the
// record's fields, not from the engine's words. A record that states a
// fact is believed whatever its words say; a stream written before the
// record carried the fact is read as it was (legacy.go).
func TestDecisionsReadTheRecord(t *testing.T) {
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	// outages is a stream of three failed attempts and one delivered;
	// mark sets how the first two say they met an outage.
	outages := func(mark func(r *simulator.Record)) []simulator.Record {
		s := newRecStream(1)
		s.recs[0].Start = &start
		for n := 1; n <= 3; n++ {
			s.attempt(0, n, time.Duration(n)*time.Minute, simulator.ConnectionFailed, 0, false, 0)
		}
		s.attempt(0, 4, 4*time.Minute, simulator.Delivered, 200, true, time.Millisecond)
		for i := 1; i <= 2; i++ {
			mark(&s.recs[i])
		}
		return s.fate(0, simulator.FateDelivered).end(nil, false)
	}
	disabled := func(cause simulator.DisableCause, by string, rule func(r *simulator.Record)) []simulator.Record {
		recs := newRecStream(1).attempt(0, 1, time.Minute, simulator.ConnectionFailed, 0, false, 0).fate(0, simulator.FateDisabled).end(nil, false)
		recs[0].Start = &start
		rule(&recs[0])
		at := start.Add(time.Hour)
		end := &recs[len(recs)-1]
		end.DisabledAt, end.DisabledBy, end.DisabledCause = &at, by, cause
		return recs
	}
	for _, tc := range []struct {
		name string
		recs []simulator.Record
		// outages is the number of outage spans; says a phrase of the text.
		outages int
		says    string
	}{
		{"an outage the record states, whatever its fault is called", outages(func(r *simulator.Record) { r.Outage, r.Fault = true, "db-down" }), 1, ""},
		{"attempts that met no outage make no span", outages(func(r *simulator.Record) {}), 0, ""},
		{"an old stream's outage, known by its fault's type", outages(func(r *simulator.Record) { r.Fault = "latency+outage" }), 1, ""},
		{"the rule that disabled the endpoint, in the policy's words from its figures",
			disabled(simulator.DisabledByRule, "after whatever", func(r *simulator.Record) { r.DisableFailingFor = 5 * 24 * time.Hour }), 0,
			"ENDPOINT DISABLED at +1h: every attempt has failed for 5d;"},
		{"an old stream's rule, known by its words",
			disabled("", "after 19 consecutive failures within 2d", func(r *simulator.Record) {
				r.DisableN, r.DisableWithin, r.DisableRule = 19, 2*24*time.Hour, "after 19 consecutive failures within 2d"
			}), 0,
			"ENDPOINT DISABLED at +1h: 19 consecutive failures within 2d;"},
		{"a probe that disabled the endpoint, in the engine's words",
			disabled(simulator.DisabledByProbe, "stripe removed the endpoint: it answered 204", func(r *simulator.Record) { r.DisableN = 3 }), 0,
			"ENDPOINT DISABLED at +1h: stripe removed the endpoint: it answered 204;"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			runs, err := report.Summarize(tc.recs)
			if err != nil {
				t.Fatal(err)
			}
			if got := len(runs[0].Outages); got != tc.outages {
				t.Errorf("%d outage spans, want %d", got, tc.outages)
			}
			if tc.says == "" {
				return
			}
			text, _, _ := renderAll(t, &report.Report{Runs: runs, Width: -1})
			if !strings.Contains(text, tc.says) {
				t.Errorf("text lacks %q:\n%s", tc.says, text)
			}
		})
	}
}

// TestOracleProblemFromTheRecord: the oracle's problem is the record's
// EffectsProblem, said as it is; an old stream's Error loses its
// "effects oracle: " prefixes, however many.
func TestOracleProblemFromTheRecord(t *testing.T) {
	for _, tc := range []struct {
		name           string
		problem, error string
		want           string
	}{
		{"the record's problem", "GET /fx: 501 Not Implemented", "effects oracle: something else", "(GET /fx: 501 Not Implemented)"},
		{"a problem that begins like the prefix", "effects oracle: a name of mine", "", "(effects oracle: a name of mine)"},
		{"an old stream's error", "", "effects oracle: effects oracle: GET /fx: 501 Not Implemented", "(GET /fx: 501 Not Implemented)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			recs := lostResponse(newRecStream(1), 0, time.Minute).end(nil, false)
			end := &recs[len(recs)-1]
			end.EffectsProblem, end.Error = tc.problem, tc.error
			runs, err := report.Summarize(recs)
			if err != nil {
				t.Fatal(err)
			}
			line := runs[0].VerdictLine()
			if runs[0].Verdict() != report.NoVerdict || !strings.Contains(line, "the effects oracle did not answer as expected "+tc.want) {
				t.Errorf("verdict %s: %q, want unknown saying %q", runs[0].Verdict(), line, tc.want)
			}
		})
	}
}
