package redact

import (
	"testing"

	"github.com/retrysim/retrysim/simulator"
)

// BenchmarkRedactRecord is the cost redaction adds to every record of a
// run: with no secret to look for (a dry run), and with one.
func BenchmarkRedactRecord(b *testing.B) {
	rec := simulator.Record{Kind: simulator.KindAttempt, Provider: "stripe", Policy: "stripe", Scenario: "black-hole", EventID: "evt_0123456789abcdef", Error: "connection refused", Fault: "drop-request", AttemptFacts: simulator.AttemptFacts{Outcome: simulator.ConnectionFailed}}
	var sink simulator.Record
	b.Run("copy-only", func(b *testing.B) {
		for b.Loop() {
			r := rec
			sink = r
		}
	})
	_ = sink
	for _, c := range []struct {
		name string
		sec  *Set
	}{{"no-secret", &Set{}}, {"one-secret", func() *Set { s := &Set{}; s.Add("whsec_bench_secret_0123456789"); return s }()}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			d := NewRecords(c.sec)
			for b.Loop() {
				if d.Redact(&rec) != &rec {
					b.Fatal("a record with no secret in it was copied")
				}
			}
		})
	}
}
