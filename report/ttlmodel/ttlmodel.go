// Package ttlmodel answers "how long must I keep dedup keys?": it runs
// each provider's retry schedule through the engine's model (no handler:
// every attempt the scenario lets through is answered 200 at once) and
// returns the report whose TTL tables compare the dedup TTL choices.
package ttlmodel

import (
	"context"
	"time"

	"github.com/retrysim/retrysim/policies"
	"github.com/retrysim/retrysim/report"
	"github.com/retrysim/retrysim/scenarios"
	"github.com/retrysim/retrysim/simulator"
)

// Providers are the policies compared when none are named: the named
// defaults that retry (a policy that never sends twice needs no TTL).
func Providers() []string {
	var out []string
	cat := policies.Default()
	for _, n := range policies.NamedDefaults() {
		if p, err := cat.Lookup(n); err == nil && p.MaxAttempts() > 1 {
			out = append(out, n)
		}
	}
	return out
}

// Model is what to compare: which schedules, under which faults, over how
// many events.
type Model struct {
	// Policies are the schedules compared, in order.
	Policies []policies.Policy
	// Scenario is the fault model; DefaultScenario says nobody chose it.
	Scenario        scenarios.Scenario
	DefaultScenario bool
	// Events per policy, their first attempts spread Over virtual time,
	// every random choice from Seed.
	Events int
	Over   time.Duration
	Seed   uint64
	// TTLs are the dedup TTL choices compared; nil for report's defaults.
	TTLs []time.Duration
	// Watch, when not nil, sees every record (a progress line).
	Watch func(*simulator.Record)
}

// Run models each policy in turn and returns the report of the runs,
// its Spelling unset. When ctx ends first, the report covers the events
// modelled so far and no error is returned: the caller tells an interrupt
// by ctx. A bad model fails with an error matching simulator.ErrConfig.
func (m Model) Run(ctx context.Context) (rep *report.Report, err error) {
	agg := report.NewAggregator(report.WithTimeline(0), report.WithTTLs(m.TTLs))
	defer func() {
		if cerr := agg.Close(); cerr != nil && err == nil {
			rep, err = nil, cerr
		}
	}()
	for _, pol := range m.Policies {
		cfg := simulator.Config{
			Policy: pol, Scenario: m.Scenario, DefaultScenario: m.DefaultScenario,
			Events: m.Events, Over: m.Over, Seed: m.Seed, DryRun: true,
			Sink: func(r *simulator.Record) error {
				if m.Watch != nil {
					m.Watch(r)
				}
				return agg.Add(r)
			},
		}
		if _, err := simulator.Run(ctx, cfg); err != nil {
			return nil, err
		}
		if ctx.Err() != nil {
			break
		}
	}
	return &report.Report{Runs: agg.Runs(), TTLs: m.TTLs}, nil
}
