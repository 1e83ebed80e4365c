package report

import (
	"fmt"
	"testing"
	"time"

	"github.com/retrysim/retrysim/simulator"
)

// Record streams for the tests inside the package (the spool, timelines and
// chart rows), which see the aggregator's internals.

// streamStart is when every stream here starts.
var streamStart = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// stream is the records of a run of n events, at most inFlight of them in
// flight at once: each block of inFlight events is attempted in turns
// (1 to 4 attempts, an attack beside every third event's second), some
// reaching the handler, then ends in reverse order, so events end out of
// Seq order. The last unfinished events never end, as in a stream cut
// short.
func stream(policy string, n, inFlight, unfinished int) []simulator.Record {
	id := func(seq int) string { return fmt.Sprintf("evt_%s_%d", policy, seq) }
	out := []simulator.Record{{Kind: simulator.KindRun, Policy: policy, Provider: policy, Scenario: "s", Seed: 1,
		RunFacts: simulator.RunFacts{MaxAttempt: 4, Timeout: 30 * time.Second, Events: n, Start: &streamStart}}}
	at := streamStart
	for from := 0; from < n; from += inFlight {
		to := min(n, from+inFlight)
		for round := 1; round <= 4; round++ {
			for seq := from; seq < to; seq++ {
				if round > 1+seq%4 {
					continue
				}
				at = at.Add(time.Minute + time.Duration(seq)*time.Millisecond)
				reached := (seq+round)%5 == 0
				out = append(out, simulator.Record{Kind: simulator.KindAttempt, EventID: id(seq), Seq: seq, Attempt: round, Time: at, At: time.Duration((float64(round-1) * 60.5) * float64(time.Second)), Fault: "drop", Answer: simulator.Answer{Reached: reached, HandlerStatus: map[bool]int{true: 500}[reached], Latency: time.Duration(seq%13) * time.Millisecond / 3}, AttemptFacts: simulator.AttemptFacts{Outcome: simulator.Timeout, Object: fmt.Sprintf("obj_%d", seq%7)}})
				if round == 2 && seq%3 == 0 {
					out = append(out, simulator.Record{Kind: simulator.KindAttack, EventID: "atk_" + id(seq), Seq: seq, Attempt: 2, Time: at, Answer: simulator.Answer{HandlerStatus: 401, Status: 401, Reached: true}, AttackFacts: simulator.AttackFacts{Attack: "bad-signature", AttackDetail: "signed with another secret"}})
				}
			}
		}
		for seq := to - 1; seq >= from; seq-- {
			if seq >= n-unfinished {
				continue
			}
			out = append(out, simulator.Record{Kind: simulator.KindEvent, EventID: id(seq), Seq: seq, Time: at, EventFacts: simulator.EventFacts{Attempts: 1 + seq%4, Fate: simulator.FateExhausted}})
		}
	}
	for i := range out {
		out[i].Policy, out[i].Provider, out[i].Scenario, out[i].Seed = policy, policy, "s", 1
	}
	return out
}

// aggregate folds recs into a new aggregator, closed when the test ends.
func aggregate(t *testing.T, recs []simulator.Record, opts ...Option) *Aggregator {
	t.Helper()
	a := NewAggregator(opts...)
	t.Cleanup(func() {
		if err := a.Close(); err != nil {
			t.Error(err)
		}
	})
	for _, r := range recs {
		if err := a.Add(&r); err != nil {
			t.Fatal(err)
		}
	}
	return a
}
