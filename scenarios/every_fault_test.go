package scenarios_test

import (
	"os"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/retrysim/retrysim/policies"
	"github.com/retrysim/retrysim/scenarios"
)

// faultExamples returns one small fault of every registered type, as a
// scenario file writes it. A type registered without an example here
// fails TestEveryFaultTypeActs, so none can be added without its test.
func faultExamples() map[string]string {
	return map[string]string{
		"bad-signature":     "{type: bad-signature}",
		"drop-request":      "{type: drop-request}",
		"duplicate":         "{type: duplicate}",
		"edge-error":        "{type: edge-error, status: 503}",
		"fan-out":           "{type: fan-out, subscriptions: 2}",
		"provider-latency":  "{type: provider-latency, start: 0s, duration: 2h, min: 5s, max: 160s}",
		"provider-outage":   "{type: provider-outage, start: 0s, duration: 2h, backlog: lost}",
		"fail-attempts":     "{type: fail-attempts, first: 2}",
		"flapping":          "{type: flapping, down: 5m, up: 25m}",
		"latency":           "{type: latency, latency: 2s}",
		"lost-response":     "{type: lost-response}",
		"manual-redelivery": "{type: manual-redelivery, after: 1h}",
		"missing-signature": "{type: missing-signature}",
		"outage":            "{type: outage, start: 0s, duration: 2h}",
		"redirect":          "{type: redirect, status: 308}",
		"reorder":           "{type: reorder}",
		"replayed":          "{type: replayed}",
		"reset":             "{type: reset}",
		"restart":           "{type: restart, at: [20m]}",
		"stale-timestamp":   "{type: stale-timestamp}",
		"tampered-body":     "{type: tampered-body}",
	}
}

// TestEveryFaultTypeActs: every registered fault type does something to a
// run — it changes an attempt (its effect or a request sent beside it),
// restarts the handler, or resends an event by hand — and
// docs/scenarios.md documents it.
func TestEveryFaultTypeActs(t *testing.T) {
	t.Parallel()
	doc, err := os.ReadFile("../docs/scenarios.md")
	if err != nil {
		t.Fatal(err)
	}
	examples := faultExamples()
	for _, typ := range scenarios.Types() {
		t.Run(typ, func(t *testing.T) {
			if !regexp.MustCompile("`" + regexp.QuoteMeta(typ) + "`").Match(doc) {
				t.Errorf("docs/scenarios.md does not document the fault type `%s`", typ)
			}
			ex, ok := examples[typ]
			if !ok {
				t.Fatalf("no example of the fault type %s: add one to faultExamples", typ)
			}
			s, err := scenarios.Decode("example.yaml", []byte("name: example\nfaults:\n  - "+ex+"\n"))
			if err != nil {
				t.Fatal(err)
			}
			if !acts(&s) {
				t.Errorf("the fault type %s (%s) does nothing to any attempt, restart or resend", typ, ex)
			}
		})
	}
	for typ := range examples {
		if !strings.Contains(strings.Join(scenarios.Types(), " ")+" ", typ+" ") {
			t.Errorf("faultExamples has %s, which is not a registered fault type", typ)
		}
	}
}

// acts reports whether s does anything to some attempt of a run: its
// first three attempts at moments over three days, each with a newer event
// about its object still to come.
func acts(s *scenarios.Scenario) bool {
	if len(s.Restarts()) > 0 {
		return true
	}
	for _, at := range []time.Duration{0, time.Minute, 20 * time.Minute, time.Hour, 3 * time.Hour, policies.Day, 3 * policies.Day} {
		for attempt := 1; attempt <= 3; attempt++ {
			c := scenarios.Context{Event: 0, Attempt: attempt, At: at, Since: at, Next: 4 * policies.Day, Timeout: 30 * time.Second}
			a := s.Decide(1, c)
			if a.Effect != (scenarios.Effect{}) || len(a.Attacks) > 0 {
				return true
			}
			if _, ok := s.Redelivery(1, c); ok {
				return true
			}
		}
	}
	return false
}

// TestReadsNextSaysWhoLooks: the engine works out an attempt's Next only
// for a scenario that says it reads it, so a fault type that says it does
// not must decide the same whatever Next is; a fault that does (reorder),
// and one of a type registered outside the package, say they read it.
func TestReadsNextSaysWhoLooks(t *testing.T) {
	t.Parallel()
	for typ, ex := range faultExamples() {
		s, err := scenarios.Decode("example.yaml", []byte("name: example\nfaults:\n  - "+ex+"\n"))
		if err != nil {
			t.Fatal(err)
		}
		if s.ReadsNext() {
			continue
		}
		if typ == "reorder" {
			t.Fatalf("a reorder scenario says it does not read Next")
		}
		for _, at := range []time.Duration{0, time.Minute, 20 * time.Minute, time.Hour, 3 * time.Hour, policies.Day, 3 * policies.Day} {
			for attempt := 1; attempt <= 3; attempt++ {
				var actions []scenarios.Action
				for _, next := range []time.Duration{-1, 0, at, at + time.Second, 4 * policies.Day} {
					for ev := range 3 {
						c := scenarios.Context{Event: ev, Attempt: attempt, At: at, Since: at, Next: next, Timeout: 30 * time.Second}
						a := s.Decide(1, c)
						a.Faults, a.Attacks = slices.Clone(a.Faults), slices.Clone(a.Attacks)
						actions = append(actions, a)
					}
				}
				for i := 3; i < len(actions); i++ {
					if !reflect.DeepEqual(actions[i], actions[i%3]) {
						t.Errorf("%s says it does not read Next, but decides attempt %d at %v differently when Next changes:\n%+v\n%+v", typ, attempt, at, actions[i%3], actions[i])
					}
				}
			}
		}
	}
	s := scenarios.Scenario{Name: "foreign", Faults: []scenarios.Fault{{Type: "foreign", Probability: 1, Kind: foreignKind{}}}}
	if !s.ReadsNext() {
		t.Errorf("a scenario with a fault type registered outside the package says it does not read Next")
	}
}

// foreignKind is a fault type of another package, which may read Next.
type foreignKind struct{}

func (foreignKind) Apply(a *scenarios.Action, c *scenarios.Context) { a.Drop = c.Next > c.At }
func (foreignKind) Validate() []error                               { return nil }
