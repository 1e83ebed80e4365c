package report_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/retrysim/retrysim/report"
	"github.com/retrysim/retrysim/simulator"
)

// answered is a stream of events each reached three times and answered
// status every time, as a handler with the wrong secret (401) or behind
// the wrong path (404) answers.
func answered(status int) *recStream {
	s := newRecStream(2)
	for seq := range 2 {
		for n := 1; n <= 3; n++ {
			s.attempt(seq, n, time.Duration(n-1)*5*time.Minute, simulator.HTTPError, status, true, ms)
		}
		s.fate(seq, simulator.FateExhausted)
	}
	return s
}

// A run that put idempotency to no test is no pass: the handler accepted
// nothing, or no duplicate reached it. Every format says so, and the
// duplicate-effects gate cannot pass.
func TestVerdictWhenNothingWasTested(t *testing.T) {
	secretHint := "does it verify with the secret retrysim printed (or the one you passed with Config.Secret)? Is its clock right?"
	for _, tc := range []struct {
		name       string
		recs       []simulator.Record
		verdict    report.Verdict
		refused    int
		duplicates int
		text       []string // in the text; the first is the verdict detail
		absent     []string // in no format
	}{
		{"wrong secret: every delivery answered 401", answered(401).end(map[string]int{}, false), report.NoVerdict, 6, 0,
			[]string{
				"UNKNOWN — your handler accepted none of the 6 deliveries (401 ×6): nothing was processed, so idempotency was not tested — " + secretHint,
				"your handler was reached 6 times by 6 attempts, refused 6 (4xx) → 0 duplicate arrivals",
				"- your handler rejected all 6 deliveries with 401: " + secretHint,
				"? duplicate-effects  cannot be checked: your handler accepted none of the 6 deliveries",
			},
			[]string{"IDEMPOTENT (", "absorbed", "answer 2xx for events you have already processed", "why the provider sent again"}},
		{"wrong path: every delivery answered 404", answered(404).end(map[string]int{}, false), report.NoVerdict, 6, 0,
			[]string{
				"UNKNOWN — your handler accepted none of the 6 deliveries (404 ×6): nothing was processed, so idempotency was not tested — check the path in Config.URL, or send events about an object your handler knows (Config.Payloads)",
				"- check the path in Config.URL, or send events about an object your handler knows (Config.Payloads): your handler answered 404 to all 6 deliveries",
				"? duplicate-effects  cannot be checked",
			},
			[]string{"IDEMPOTENT (", "answer 2xx for events you have already processed", "Config.Secret"}},
		{"a handler that fails every delivery", answered(500).end(map[string]int{}, false), report.NoVerdict, 0, 4,
			[]string{
				"UNKNOWN — your handler answered none of the 6 deliveries with 2xx (500 ×6): it accepted nothing, so idempotency was not tested",
				"your handler was reached 6 times by 6 attempts → 4 duplicate arrivals in 2 events",
				"? duplicate-effects  cannot be checked: your handler answered none of the 6 deliveries with 2xx",
				"- your handler accepted none of the 6 deliveries (500 ×6): it fails on every request, so look at its log",
			},
			[]string{"IDEMPOTENT (", "Config.Secret", "check the path", "answer 2xx for events you have already processed"}},
		{"no duplicate reached the handler", func() []simulator.Record {
			s := newRecStream(2)
			s.attempt(0, 1, 0, simulator.ConnectionFailed, 0, false, 0).
				attempt(0, 2, 5*time.Minute, simulator.Delivered, 200, true, ms).fate(0, simulator.FateDelivered)
			return s.attempt(1, 1, 0, simulator.Delivered, 200, true, ms).fate(1, simulator.FateDelivered).
				end(map[string]int{"evt_a": 1, "evt_b": 1}, false)
		}(), report.NoVerdict, 0, 0,
			[]string{
				"UNKNOWN — every event processed at most once, but no duplicate reached your handler, so this run did not test idempotency",
				"? duplicate-effects  cannot be checked: every event processed at most once, but no duplicate reached your handler",
			},
			[]string{"IDEMPOTENT"}},
		// Once the secret is right, the events refused before count as
		// first deliveries, not duplicates: only the lost answer's retry is.
		{"refused, then accepted", func() []simulator.Record {
			s := newRecStream(2)
			s.attempt(0, 1, 0, simulator.HTTPError, 401, true, ms).
				attempt(0, 2, 5*time.Minute, simulator.Delivered, 200, true, ms).fate(0, simulator.FateDelivered)
			return lostResponse(s, 1, 5*time.Minute).end(map[string]int{"evt_a": 1, "evt_b": 1}, false)
		}(), report.Idempotent, 1, 1,
			[]string{
				"every event processed at most once ✓ IDEMPOTENT (1 duplicate arrival absorbed)",
				"your handler was reached 4 times by 4 attempts, refused 1 (4xx) → 1 duplicate arrival in 1 event",
				"✓ duplicate-effects  no event was processed more than once (1 duplicate arrival absorbed)",
			},
			[]string{"Config.Secret", "your handler answered with an error status"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			runs, err := report.Summarize(tc.recs)
			if err != nil {
				t.Fatal(err)
			}
			r := runs[0]
			rep := &report.Report{Runs: runs, Width: -1, Gates: report.CheckGates(runs, []report.Gate{report.GateDuplicateEffects}, report.GateOptions{})}
			text, md, js := renderAll(t, rep)
			for _, want := range tc.text {
				if !strings.Contains(text, want) {
					t.Errorf("text lacks %q:\n%s", want, text)
				}
			}
			if got := r.VerdictLine(); got != tc.text[0] && !strings.HasPrefix(got, tc.text[0]) {
				t.Errorf("verdict line %q, want %q", got, tc.text[0])
			}
			wantGate := map[report.Verdict]report.GateStatus{report.Idempotent: report.GatePass, report.NoVerdict: report.GateUnchecked}[tc.verdict]
			if g := rep.Gates[0]; g.Status != wantGate {
				t.Errorf("duplicate-effects gate %s, want %s: %s", g.Status, wantGate, g.Message)
			}
			for _, want := range []string{"**Verdict: " + report.VerdictWords(tc.verdict) + "** — " + mdEscape(tc.text[0])} {
				if !strings.Contains(md, want) {
					t.Errorf("markdown lacks %q:\n%s", want, md)
				}
			}
			for _, out := range []string{text, md, js} {
				for _, no := range tc.absent {
					if strings.Contains(out, no) {
						t.Errorf("report says %q:\n%s", no, out)
					}
				}
			}
			var doc struct {
				Runs []struct {
					Verdict report.Verdict `json:"verdict"`
					Detail  string         `json:"verdict_detail"`
					Gates   []struct{ Status string }
					Summary struct {
						Duplicates *int `json:"duplicate_effects"`
						Arrivals   int  `json:"duplicate_arrivals"`
						Refused    int  `json:"refused_arrivals"`
					} `json:"summary"`
				} `json:"runs"`
			}
			if err := json.Unmarshal([]byte(js), &doc); err != nil {
				t.Fatal(err)
			}
			j := doc.Runs[0]
			if j.Verdict != tc.verdict || j.Detail != r.VerdictLine() || j.Gates[0].Status != string(wantGate) {
				t.Errorf("JSON verdict %q (%q), gate %s; want %q, gate %s", j.Verdict, j.Detail, j.Gates[0].Status, tc.verdict, wantGate)
			}
			if (j.Summary.Duplicates == nil) != (tc.verdict == report.NoVerdict) {
				t.Errorf("JSON duplicate_effects %v for verdict %s: a run that tested nothing has no count", j.Summary.Duplicates, tc.verdict)
			}
			if j.Summary.Arrivals != tc.duplicates || j.Summary.Refused != tc.refused || r.DuplicateArrivals != tc.duplicates || r.RefusedArrivals != tc.refused {
				t.Errorf("duplicate arrivals %d (JSON %d), refused %d (JSON %d); want %d, %d",
					r.DuplicateArrivals, j.Summary.Arrivals, r.RefusedArrivals, j.Summary.Refused, tc.duplicates, tc.refused)
			}
		})
	}
}
