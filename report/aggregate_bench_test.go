package report

import (
	"fmt"
	"testing"
	"time"

	"github.com/retrysim/retrysim/policies/policytest"
	"github.com/retrysim/retrysim/simulator"
)

// BenchmarkAggregateBlackHole folds into an Aggregator the records of a
// dry run of 1 M Stripe events against a black hole, in the order the
// engine writes them (each attempt number's records in sequence order, the
// attempt numbers' records interleaved by time), without the engine: the
// command line's own work per record (with the making of the records,
// which is the same on every side of a comparison).
func BenchmarkAggregateBlackHole(b *testing.B) {
	const events = 1_000_000
	p := policytest.Lookup(b, "stripe")
	n := p.MaxAttempts()
	start := simulator.DefaultStart()
	ids, objects := make([]string, events), make([]string, events)
	for s := range events {
		ids[s], objects[s] = fmt.Sprintf("evt_%020d", s), fmt.Sprintf("obj_%016x", uint64(s)*0x9e3779b97f4a7c15)
	}
	gap := time.Minute / events
	offsets := make([]time.Duration, n)
	for j := range offsets {
		offsets[j] = p.Offset(j + 1)
	}
	for b.Loop() {
		a := NewAggregator()
		rec := simulator.Record{Kind: simulator.KindRun, Provider: "stripe", Policy: "stripe", Scenario: "black-hole", Seed: 1, Time: start}
		rec.MaxAttempt, rec.Events = n, events
		if err := a.Add(&rec); err != nil {
			b.Fatal(err)
		}
		// next[k] is the event whose attempt k+1 comes next in its lane.
		next := make([]int, n)
		for {
			k, at := -1, time.Duration(0)
			for j, s := range next {
				if s < events {
					if t := time.Duration(s)*gap + offsets[j]; k < 0 || t < at {
						k, at = j, t
					}
				}
			}
			if k < 0 {
				break
			}
			s := next[k]
			next[k]++
			rec = simulator.Record{Kind: simulator.KindAttempt, Provider: "stripe", Policy: "stripe", Scenario: "black-hole", Seed: 1,
				EventID: ids[s], Seq: s, Attempt: k + 1, Time: start.Add(at), Fault: "drop-request", Error: "timeout (injected)"}
			rec.Outcome, rec.Object = simulator.Timeout, objects[s]
			if err := a.Add(&rec); err != nil {
				b.Fatal(err)
			}
			if k == n-1 {
				rec = simulator.Record{Kind: simulator.KindEvent, Provider: "stripe", Policy: "stripe", Scenario: "black-hole", Seed: 1,
					EventID: ids[s], Seq: s, Time: start.Add(at)}
				rec.Fate, rec.Attempts = simulator.FateExhausted, n
				if err := a.Add(&rec); err != nil {
					b.Fatal(err)
				}
			}
		}
		if got := a.Runs()[0].Attempts; got != events*n {
			b.Fatalf("%d attempts, want %d", got, events*n)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*events*n), "ns/attempt")
}
