package report

import (
	"fmt"
	"io"
	"testing"
	"time"

	"github.com/retrysim/retrysim/simulator"
)

// feedBlackHole adds a black-hole run of n events to a: every event in
// flight at once, each attempted 16 times, every attempt timing out.
func feedBlackHole(b *testing.B, a *Aggregator, n int) {
	b.Helper()
	add := func(r simulator.Record) {
		r.Provider, r.Policy, r.Scenario, r.Seed = "stripe", "stripe", "black-hole", 1
		if err := a.Add(&r); err != nil {
			b.Fatal(err)
		}
	}
	add(simulator.Record{Kind: simulator.KindRun, RunFacts: simulator.RunFacts{MaxAttempt: 16, Timeout: 30 * time.Second, Events: n, Start: &streamStart}})
	ids := make([]string, n)
	for i := range ids {
		ids[i] = fmt.Sprintf("evt_%024d", i)
	}
	for round := 1; round <= 16; round++ {
		for seq, id := range ids {
			at := streamStart.Add(time.Duration(round)*time.Hour + time.Duration(seq)*time.Millisecond)
			add(simulator.Record{Kind: simulator.KindAttempt, EventID: id, Seq: seq, Attempt: round, Time: at, At: time.Duration((float64(round-1) * 3600) * float64(time.Second)), Fault: "black-hole", Answer: simulator.Answer{Latency: 30 * time.Second}, AttemptFacts: simulator.AttemptFacts{Outcome: simulator.Timeout}})
		}
	}
	for seq, id := range ids {
		add(simulator.Record{Kind: simulator.KindEvent, EventID: id, Seq: seq, EventFacts: simulator.EventFacts{Attempts: 16, Fate: simulator.FateExhausted}})
	}
	add(simulator.Record{Kind: simulator.KindEnd})
}

// BenchmarkSpooledJSON aggregates a black-hole run keeping every event and
// writes its JSON report: the cost of the spool per event, both ways.
func BenchmarkSpooledJSON(b *testing.B) {
	const n = 20000
	for b.Loop() {
		a := NewAggregator(WithTimeline(-1), WithSpoolDir(b.TempDir()))
		feedBlackHole(b, a, n)
		if err := WriteJSON(io.Discard, &Report{Runs: a.Runs()}); err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(a.spool.size)/n, "spool-B/event")
		if err := a.Close(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/event")
}
