package simulator

import (
	"context"
	"testing"
	"time"

	"github.com/retrysim/retrysim/policies/policytest"
)

// BenchmarkEffects is a run of 50,000 events whose oracle reports each of
// them once: what reading the oracle and writing the effects records costs
// beside the attempts.
func BenchmarkEffects(b *testing.B) {
	const events = 50_000
	p := policytest.Lookup(b, "stripe")
	for b.Loop() {
		var ids []string
		effects := func(context.Context) (map[string]int, error) {
			m := make(map[string]int, len(ids))
			for _, id := range ids {
				m[id] = 1
			}
			return m, nil
		}
		n := 0
		sink := func(r *Record) error {
			switch r.Kind {
			case KindEvent:
				ids = append(ids, r.EventID)
			case KindEffects:
				n++
			}
			return nil
		}
		if _, err := Run(context.Background(), Config{Policy: p, DryRun: true, Events: events, Over: time.Minute, Effects: effects, Sink: sink}); err != nil || n != events {
			b.Fatalf("%d effects records, err %v", n, err)
		}
	}
}
