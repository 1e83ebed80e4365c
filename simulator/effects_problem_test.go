package simulator

import (
	"context"
	"errors"
	"net/http"
	"testing"

	"github.com/retrysim/retrysim/policies/policytest"
	"github.com/retrysim/retrysim/scenarios/scenariotest"
)

// The end record states the oracle's problem on its own (EffectsProblem),
// so a report says it without cutting the engine's words; Error keeps its
// "effects oracle: " form for readers of older streams.
func TestEndRecordStatesTheOracleProblem(t *testing.T) {
	ok := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {})
	broken := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusNotImplemented) })
	for _, tc := range []struct {
		name             string
		effects          EffectsFunc
		problem, errText string
	}{
		{"an oracle answering 501", EffectsFromHandler(broken, "/fx"), "GET /fx: 501 Not Implemented", "effects oracle: GET /fx: 501 Not Implemented"},
		{"an oracle of one's own failing", func(context.Context) (map[string]int, error) { return nil, errors.New("db down") }, "db down", "effects oracle: db down"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			recs, _ := collect(t, Config{Policy: policytest.Lookup(t, "stripe"), Scenario: scenariotest.Lookup(t, "happy"), Handler: ok, Effects: tc.effects, Events: 1})
			end := recs[len(recs)-1]
			if end.Kind != KindEnd || end.EffectsKnown || end.EffectsProblem != tc.problem || end.Error != tc.errText {
				t.Errorf("end record: known %v, problem %q, error %q; want problem %q, error %q", end.EffectsKnown, end.EffectsProblem, end.Error, tc.problem, tc.errText)
			}
		})
	}
}
