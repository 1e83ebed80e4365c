package report_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/retrysim/retrysim/report"
	"github.com/retrysim/retrysim/simulator"
)

// The verdict, its offenders and the gates appear in the text, the
// markdown and the JSON contract alike.
func TestVerdictInEveryFormat(t *testing.T) {
	recs := func(effects map[string]int) []simulator.Record {
		s := newRecStream(2)
		s.attempt(0, 1, 0, simulator.Delivered, 200, true, 5*ms).fate(0, simulator.FateDelivered)
		return lostResponse(s, 1, 5*time.Minute).end(effects, false)
	}
	// failed is a run whose oracle answered 501; modelled one that only
	// modelled the handler (a dry run, or retrysim ttl).
	failed := recs(nil)
	failed[len(failed)-1].Error = "effects oracle: GET http://127.0.0.1:9/effects: 501 Not Implemented"
	modelled := recs(nil)
	modelled[0].Target = "model (dry run: the handler answers 200 at once)"
	// The run record says it was a dry run, whatever the target is named.
	dryRun := recs(nil)
	dryRun[0].Target, dryRun[0].DryRun = "a model of my handler", true
	const blind = `UNKNOWN — the effects oracle knows none of the 2 delivered events (those your handler answered 2xx): it must answer {"<dedup id>": <times processed>}`
	for _, tc := range []struct {
		name       string
		recs       []simulator.Record
		verdict    report.Verdict
		duplicates any // summary.duplicate_effects: a number, or nil
		offenders  []report.Offender
		text       []string
		gate       report.GateStatus
		absent     []string // in no format
	}{
		{"idempotent", recs(map[string]int{"evt_a": 1, "evt_b": 1}), report.Idempotent, 0.0, nil,
			[]string{"✓ IDEMPOTENT (1 duplicate arrival absorbed)", "✓ duplicate-effects  no event was processed more than once"}, report.GatePass, []string{"does not report"}},
		{"not idempotent", recs(map[string]int{"evt_a": 1, "evt_b": 3}), report.NotIdempotent, 1.0, []report.Offender{{ID: "evt_b", Times: 3}},
			[]string{"1 event processed more than once (2 extra side effects) ✗ NOT IDEMPOTENT: evt_b ×3", "✗ duplicate-effects  1 event of 2 processed more than once: evt_b processed 3 times"}, report.GateFail, nil},
		{"idempotent, handler calls still running", caveat(recs(map[string]int{"evt_a": 1, "evt_b": 1}), 2, false), report.Idempotent, 0.0, nil,
			[]string{"✓ IDEMPOTENT (1 duplicate arrival absorbed); 2 handler calls were still running when the effects were read; the verdict may miss their effects",
				"? duplicate-effects  cannot be vouched for: 2 handler calls were still running"}, report.GateUnchecked, nil},
		// Counts still moving when retrysim stopped reading them vouch for
		// nothing: no verdict, and the gate cannot pass.
		{"effects still changing: unknown", caveat(recs(map[string]int{"evt_a": 1, "evt_b": 1}), 0, true), report.NoVerdict, nil, nil,
			[]string{"UNKNOWN — your handler's effects were still changing when retrysim stopped reading them",
				"? duplicate-effects  cannot be checked: your handler's effects were still changing"}, report.GateUnchecked, []string{"IDEMPOTENT"}},
		{"not idempotent, effects still changing: the duplicates stand", caveat(recs(map[string]int{"evt_a": 1, "evt_b": 2}), 0, true), report.NotIdempotent, 1.0, []report.Offender{{ID: "evt_b", Times: 2}},
			[]string{"✗ NOT IDEMPOTENT: evt_b ×2; your handler's effects were still changing", "✗ duplicate-effects  1 event of 2 processed more than once"}, report.GateFail, nil},
		{"not idempotent, a handler call still running", caveat(recs(map[string]int{"evt_a": 1, "evt_b": 3}), 1, false), report.NotIdempotent, 1.0, []report.Offender{{ID: "evt_b", Times: 3}},
			[]string{"✗ NOT IDEMPOTENT: evt_b ×3; 1 handler call was still running when the effects were read", "✗ duplicate-effects  1 event of 2 processed more than once"}, report.GateFail, nil},
		{"unknown, a handler call still running: no verdict to qualify", caveat(recs(nil), 1, false), report.NoVerdict, nil, nil,
			[]string{"pass Config.Effects for a verdict\n", "? duplicate-effects  cannot be checked"}, report.GateUnchecked, nil},
		{"unknown", recs(nil), report.NoVerdict, nil, nil,
			[]string{"duplicates reached your handler; effects UNKNOWN", "pass Config.Effects for a verdict", "? duplicate-effects  cannot be checked"}, report.GateUnchecked, nil},
		// An oracle that answers for none of the delivered events cannot
		// vouch for the handler: a stub, all zeros, or another key.
		{"oracle knows no event", recs(map[string]int{}), report.NoVerdict, nil, nil,
			[]string{blind, `e.g. {"evt_a": 1}`, "? duplicate-effects  cannot be checked: the effects oracle knows none of the 2 delivered events"}, report.GateUnchecked, []string{"IDEMPOTENT"}},
		{"oracle knows no event, a handler call still running: no verdict to qualify", caveat(recs(map[string]int{}), 1, false), report.NoVerdict, nil, nil,
			[]string{blind}, report.GateUnchecked, []string{"IDEMPOTENT", "handler call was still running"}},
		{"oracle counts every event 0", recs(map[string]int{"evt_a": 0, "evt_b": 0}), report.NoVerdict, nil, nil,
			[]string{blind}, report.GateUnchecked, []string{"IDEMPOTENT"}},
		{"oracle keyed by another id", recs(map[string]int{"ord_1": 2, "ord_2": 1}), report.NoVerdict, nil, nil,
			[]string{blind}, report.GateUnchecked, []string{"IDEMPOTENT", "ord_1"}},
		// IDEMPOTENT needs every accepted event reported: a partial oracle
		// (an in-memory store emptied by a restart) vouches for nothing
		// about the rest.
		{"oracle knows some events: unknown", recs(map[string]int{"evt_b": 1}), report.NoVerdict, nil, nil,
			[]string{"UNKNOWN — the effects oracle does not report 1 of the 2 events your handler answered 2xx",
				"? duplicate-effects  cannot be checked: the effects oracle does not report 1 of the 2"}, report.GateUnchecked, []string{"IDEMPOTENT"}},
		{"oracle failed", failed, report.NoVerdict, nil, nil,
			[]string{"UNKNOWN — the effects oracle did not answer as expected (GET http://127.0.0.1:9/effects: 501 Not Implemented): it must answer 200 with {",
				"? duplicate-effects  cannot be checked: the effects oracle did not answer as expected (GET"}, report.GateUnchecked,
			[]string{"effects oracle: effects oracle", "Config.Effects"}},
		{"dry run, named anyhow", dryRun, report.NoVerdict, nil, nil,
			[]string{"side effects: none to judge: this run only modelled your handler and sent nothing, so no side effect happened"}, report.GateUnchecked,
			[]string{"Config.Effects"}},
		{"modelled run", modelled, report.NoVerdict, nil, nil,
			[]string{"side effects: none to judge: this run only modelled your handler and sent nothing, so no side effect happened"}, report.GateUnchecked,
			[]string{"Config.Effects"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			runs, err := report.Summarize(tc.recs)
			if err != nil {
				t.Fatal(err)
			}
			rep := &report.Report{Runs: runs, Width: -1, Gates: report.CheckGates(runs, []report.Gate{report.GateDuplicateEffects}, report.GateOptions{})}
			var text bytes.Buffer
			if err := report.WriteText(&text, rep); err != nil {
				t.Fatal(err)
			}
			for _, want := range tc.text {
				if !strings.Contains(text.String(), want) {
					t.Errorf("text lacks %q:\n%s", want, text.String())
				}
			}
			var md bytes.Buffer
			if err := report.WriteMarkdown(&md, rep); err != nil {
				t.Fatal(err)
			}
			for _, want := range []string{
				"**Verdict: " + report.VerdictWords(tc.verdict) + "**",
				"### CI gates (CheckGates)",
				"| `duplicate-effects` | " + map[report.GateStatus]string{report.GatePass: "✓", report.GateFail: "✗", report.GateUnchecked: "?"}[tc.gate] + " " + string(tc.gate) + " |",
			} {
				if !strings.Contains(md.String(), want) {
					t.Errorf("markdown lacks %q:\n%s", want, md.String())
				}
			}
			var js bytes.Buffer
			if err := report.WriteJSON(&js, rep); err != nil {
				t.Fatal(err)
			}
			for _, out := range []string{text.String(), md.String(), runs[0].VerdictLine()} {
				for _, no := range tc.absent {
					if strings.Contains(out, no) {
						t.Errorf("report says %q:\n%s", no, out)
					}
				}
			}
			var doc struct {
				Runs []struct {
					Verdict   report.Verdict    `json:"verdict"`
					Detail    string            `json:"verdict_detail"`
					Offenders []report.Offender `json:"offenders"`
					Gates     []struct {
						Gate, Status, Message string
					} `json:"gates"`
					Summary          map[string]any `json:"summary"`
					HandlersRunning  int            `json:"handlers_running"`
					EffectsUnsettled bool           `json:"effects_unsettled"`
				} `json:"runs"`
			}
			if err := json.Unmarshal(js.Bytes(), &doc); err != nil {
				t.Fatal(err)
			}
			r := doc.Runs[0]
			if r.HandlersRunning != runs[0].HandlersRunning || r.EffectsUnsettled != runs[0].EffectsUnsettled {
				t.Errorf("JSON handlers_running %d effects_unsettled %v, want %d %v", r.HandlersRunning, r.EffectsUnsettled, runs[0].HandlersRunning, runs[0].EffectsUnsettled)
			}
			if r.Verdict != tc.verdict || r.Detail != runs[0].VerdictLine() {
				t.Errorf("JSON verdict %q detail %q, want %q %q", r.Verdict, r.Detail, tc.verdict, runs[0].VerdictLine())
			}
			if got, ok := r.Summary["duplicate_effects"]; !ok || got != tc.duplicates {
				t.Errorf("summary.duplicate_effects = %v (present %v), want %v", got, ok, tc.duplicates)
			}
			if len(r.Offenders) != len(tc.offenders) || (len(r.Offenders) > 0 && r.Offenders[0] != tc.offenders[0]) {
				t.Errorf("offenders %v, want %v", r.Offenders, tc.offenders)
			}
			if len(r.Gates) != 1 || r.Gates[0].Gate != "duplicate-effects" || r.Gates[0].Status != string(tc.gate) || r.Gates[0].Message == "" {
				t.Errorf("gates %+v, want duplicate-effects %s with a message", r.Gates, tc.gate)
			}
		})
	}
}

// caveat marks a stream's end record as read while the handler may still
// have been at work: calls still running in process, or an oracle still
// changing.
func caveat(recs []simulator.Record, running int, unsettled bool) []simulator.Record {
	end := &recs[len(recs)-1]
	end.HandlersRunning, end.EffectsUnsettled = running, unsettled
	return recs
}
