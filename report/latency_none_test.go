package report_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/retrysim/retrysim/report"
	"github.com/retrysim/retrysim/simulator"
)

// When no answer came, the response-time figures are not zeros: every
// format says no answer came, and a dry run, which measures nothing,
// cannot pass the slow-responses gate.
func TestLatencyWhenNoAnswerCame(t *testing.T) {
	timedOut := func() []simulator.Record {
		s := newRecStream(1)
		for n := 1; n <= 3; n++ {
			s.attempt(0, n, time.Duration(n-1)*5*time.Minute, simulator.Timeout, 0, true, 30*time.Second)
		}
		return s.fate(0, simulator.FateExhausted).end(nil, false)
	}
	dryRun := func() []simulator.Record {
		s := newRecStream(1)
		s.recs[0].Target = "model (dry run: the handler answers 200 at once)"
		return s.attempt(0, 1, 0, simulator.Delivered, 200, true, 0).fate(0, simulator.FateDelivered).end(nil, false)
	}
	for _, tc := range []struct {
		name     string
		recs     []simulator.Record
		line     string
		measured bool
		gate     report.GateStatus
		message  string
	}{
		{"every attempt timed out", timedOut(),
			"no answer came: all 3 attempts that reached your handler got none within stripe's 30s", true,
			report.GateFail, "3 of 3 attempts that reached the handler waited past stripe's 30s timeout (3 got no answer within 30s; no answer was measured)"},
		{"a dry run", dryRun(),
			"not measured (nothing was sent: a dry run models the handler as answering at once)", false,
			report.GateUnchecked, "cannot be checked: this run only modelled your handler (a dry run) and sent nothing, so no response time was measured"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			runs, err := report.Summarize(tc.recs)
			if err != nil {
				t.Fatal(err)
			}
			rep := &report.Report{Runs: runs, Gates: report.CheckGates(runs, []report.Gate{report.GateSlowResponses}, report.GateOptions{})}
			if g := rep.Gates[0]; g.Status != tc.gate || !strings.HasPrefix(g.Message, tc.message) {
				t.Errorf("slow-responses %s %q, want %s %q", g.Status, g.Message, tc.gate, tc.message)
			}
			text, md, js := renderAll(t, rep)
			if !strings.Contains(text, "  response time: "+tc.line+"\n") {
				t.Errorf("text lacks %q:\n%s", tc.line, text)
			}
			if !strings.Contains(md, "### Response time and timeout headroom\n\n"+mdEscape(tc.line)+"\n") {
				t.Errorf("markdown lacks %q:\n%s", tc.line, md)
			}
			for _, out := range []string{text, md} {
				if strings.Contains(out, "0.0ms") || strings.Contains(out, "over 0 answers") {
					t.Errorf("report shows times although no answer came:\n%s", out)
				}
			}
			var doc struct {
				Runs []struct {
					Latency map[string]any `json:"latency"`
				} `json:"runs"`
			}
			if err := json.Unmarshal([]byte(js), &doc); err != nil {
				t.Fatal(err)
			}
			l := doc.Runs[0].Latency
			for _, k := range []string{"p50_ms", "p95_ms", "p99_ms", "max_ms"} {
				if v, ok := l[k]; !ok || v != nil {
					t.Errorf("JSON latency.%s = %v (present %v), want null: no answer came", k, v, ok)
				}
			}
			if l["measured"] != tc.measured || l["answers"] != 0.0 {
				t.Errorf("JSON latency measured %v answers %v, want %v 0", l["measured"], l["answers"], tc.measured)
			}
		})
	}
}

// An in-process handler can answer in well under a microsecond: those
// answers were measured, at zero, and the report says so rather than
// "not measured".
func TestLatencyOfInstantAnswersIsMeasured(t *testing.T) {
	s := newRecStream(1)
	recs := s.attempt(0, 1, 0, simulator.Delivered, 200, true, 0).fate(0, simulator.FateDelivered).end(nil, false)
	runs, err := report.Summarize(recs)
	if err != nil {
		t.Fatal(err)
	}
	if r := runs[0]; !r.Measured() || r.Answers() != 1 {
		t.Errorf("measured %v with %d answers, want one answer measured", r.Measured(), r.Answers())
	}
}
