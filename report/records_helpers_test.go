package report_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/retrysim/retrysim/policies/policytest"
	"github.com/retrysim/retrysim/report"
	"github.com/retrysim/retrysim/scenarios"
	"github.com/retrysim/retrysim/simulator"
)

// Record streams for the tests, built by hand so that each test says exactly
// what the engine sent and what the handler answered and did, or made by a
// dry run of the engine.

// recStream builds a small record stream for one run of a policy with a 30s
// timeout and a 72h retry window.
type recStream struct{ recs []simulator.Record }

func newRecStream(events int) *recStream {
	start := t0
	return &recStream{recs: []simulator.Record{{
		Kind: simulator.KindRun, Provider: "stripe", Policy: "stripe", Scenario: "test", Seed: 1,
		Time: start, RunFacts: simulator.RunFacts{Events: events, Timeout: 30 * time.Second, Window: 72 * time.Hour, MaxAttempt: 16, Start: &start},
	}}}
}

func (s *recStream) base(kind string) simulator.Record {
	return simulator.Record{Kind: kind, Provider: "stripe", Policy: "stripe", Scenario: "test", Seed: 1}
}

// attempt adds attempt n of event seq at +at from the event's first attempt.
func (s *recStream) attempt(seq, n int, at time.Duration, o simulator.Outcome, handler int, reached bool, latency time.Duration) *recStream {
	r := s.base(simulator.KindAttempt)
	r.EventID, r.Seq, r.Attempt = eventID(seq), seq, n
	r.Time = t0.Add(time.Duration(seq)*time.Minute + at)
	r.At = at
	r.Outcome, r.HandlerStatus, r.Reached = o, handler, reached
	if o == simulator.Delivered || o == simulator.HTTPError || o == simulator.Redirect {
		r.Status = handler
	}
	r.Latency = latency.Truncate(time.Microsecond)
	s.recs = append(s.recs, r)
	return s
}

func (s *recStream) fate(seq int, fate string) *recStream {
	r := s.base(simulator.KindEvent)
	r.EventID, r.Seq, r.Fate = eventID(seq), seq, fate
	s.recs = append(s.recs, r)
	return s
}

// end closes the run; effects nil means no oracle.
func (s *recStream) end(effects map[string]int, interrupted bool) []simulator.Record {
	for id, n := range effects {
		r := s.base(simulator.KindEffects)
		r.EventID, r.Effects = id, n
		s.recs = append(s.recs, r)
	}
	r := s.base(simulator.KindEnd)
	r.EffectsKnown, r.Interrupted = effects != nil, interrupted
	s.recs = append(s.recs, r)
	return s.recs
}

func eventID(seq int) string { return "evt_" + string(rune('a'+seq)) }

const ms = time.Millisecond

// lostResponse is a delivery whose answer was lost, then a retry delivered
// at +at.
func lostResponse(s *recStream, seq int, at time.Duration) *recStream {
	return s.attempt(seq, 1, 0, simulator.LostResponse, 200, true, 3*ms).
		attempt(seq, 2, at, simulator.Delivered, 200, true, 2*ms).
		fate(seq, simulator.FateDelivered)
}

var t0 = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// sigStream builds a run's records by hand: the tests below say exactly what
// a handler answered and did.
type sigStream struct {
	recs    []simulator.Record
	effects map[string]int
	known   bool
}

var streamStart = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func newSigStream(policy string, timeout time.Duration) *sigStream {
	start := streamStart
	return &sigStream{recs: []simulator.Record{{Kind: simulator.KindRun, Provider: policy, Policy: policy, Scenario: "test", Seed: 1,
		Time: start, RunFacts: simulator.RunFacts{Events: 1, Timeout: timeout, Start: &start}}}, effects: map[string]int{}, known: true}
}

func (s *sigStream) add(r simulator.Record) *sigStream {
	head := s.recs[0]
	r.Provider, r.Policy, r.Scenario, r.Seed = head.Provider, head.Policy, head.Scenario, head.Seed
	if r.Time.IsZero() {
		r.Time = streamStart
	}
	s.recs = append(s.recs, r)
	return s
}

// attempt adds a delivered attempt of event evt_<seq> that took latency.
func (s *sigStream) attempt(seq int, latency time.Duration) *sigStream {
	return s.add(simulator.Record{Kind: simulator.KindAttempt, EventID: "evt_" + string(rune('a'+seq)), Seq: seq, Attempt: 1, Answer: simulator.Answer{Status: 200, HandlerStatus: 200, Reached: true, Latency: latency.Truncate(time.Microsecond)}, AttemptFacts: simulator.AttemptFacts{Outcome: simulator.Delivered}})
}

// attack adds an attack request on its own id, answered status.
func (s *sigStream) attack(attack, id string, status int, more ...func(*simulator.Record)) *sigStream {
	r := simulator.Record{Kind: simulator.KindAttack, EventID: id, Seq: 0, Attempt: 1, Answer: simulator.Answer{Status: status, HandlerStatus: status, Reached: status != 0}, AttackFacts: simulator.AttackFacts{Attack: attack}}
	for _, f := range more {
		f(&r)
	}
	return s.add(r)
}

func (s *sigStream) run(t *testing.T) *report.Summary {
	t.Helper()
	agg := report.NewAggregator(report.WithTimeline(-1))
	for _, r := range s.recs {
		if err := agg.Add(&r); err != nil {
			t.Fatal(err)
		}
	}
	var ids []string
	for id := range s.effects {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		if err := agg.Add(&simulator.Record{Kind: simulator.KindEffects, Provider: s.recs[0].Provider, Policy: s.recs[0].Policy, Scenario: "test", Seed: 1, EventID: id, EffectsFacts: simulator.EffectsFacts{Effects: s.effects[id]}}); err != nil {
			t.Fatal(err)
		}
	}
	if err := agg.Add(&simulator.Record{Kind: simulator.KindEnd, Provider: s.recs[0].Provider, Policy: s.recs[0].Policy, Scenario: "test", Seed: 1, Time: streamStart, EndFacts: simulator.EndFacts{EffectsKnown: s.known}}); err != nil {
		t.Fatal(err)
	}
	return agg.Runs()[0]
}

func dryRun(t *testing.T, policy string, sc scenarios.Scenario, agg *report.Aggregator) {
	t.Helper()
	pol := policytest.Lookup(t, policy)
	_, err := simulator.Run(context.Background(), simulator.Config{
		Policy: pol, Scenario: sc, DryRun: true, Events: 12, Seed: 5, RunID: "golden", Sink: agg.Add,
	})
	if err != nil {
		t.Fatal(err)
	}
}
