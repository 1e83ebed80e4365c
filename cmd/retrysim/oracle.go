package main

import (
	"context"
	"net"
	"time"

	"github.com/spf13/pflag"

	"github.com/retrysim/retrysim/policies"
	"github.com/retrysim/retrysim/report/advice"
	"github.com/retrysim/retrysim/simulator"
	"github.com/retrysim/retrysim/simulator/oracle"
)

// oracleFlags are run's flags for the effects oracle beside --effects-url:
// a database's queries, and the quiet window.
type oracleFlags struct {
	effectsQuery, pendingQuery, settleQuiet string
}

func (o *oracleFlags) add(fl *pflag.FlagSet) {
	fl.StringVar(&o.effectsQuery, "effects-query", "", "with a database --effects-url: the query returning one (id text, times integer) row per dedup id, e.g. 'SELECT event_id, count(*) FROM ledger GROUP BY event_id'")
	fl.StringVar(&o.pendingQuery, "pending-query", "", "with a database --effects-url: the query returning one integer, the jobs your handler has queued and not yet done (retrysim reads until it is 0, up to --settle)")
	fl.StringVar(&o.settleQuiet, "settle-quiet", "", "for an oracle that reports no pending work: the least time its answer must stay the same to count as settled; the window grows to twice the longest gap seen between two changes (default "+policies.FormatDuration(simulator.DefaultSettleQuiet)+", or half of --settle when that is shorter)")
}

// oraclePlan is the effects oracle a run reads: a database's source and
// queries, or nothing here for an HTTP oracle.
type oraclePlan struct {
	db          bool
	src         oracle.Source
	settleQuiet time.Duration
}

// validateOracle reads --effects-url's database form, --effects-query,
// --pending-query and --settle-quiet (advice.OracleFlags), and refuses a
// database off this machine unless --allow-remote.
func (f *runFlags) validateOracle(ctx context.Context, p *plan) []error {
	o := f.oracleFlags
	src, db, quiet, errs := advice.OracleFlags{EffectsURL: f.effectsURL, EffectsQuery: o.effectsQuery, PendingQuery: o.pendingQuery, SettleQuiet: o.settleQuiet}.Check()
	p.oracle = oraclePlan{db: db, src: src, settleQuiet: quiet}
	if db {
		secretsOf(ctx).Add(src.Password)
		if !src.Local && !f.dryRun {
			errs = append(errs, checkTarget(ctx, "--effects-url", "http://"+net.JoinHostPort(src.Host, src.Port), f.allowRemote)...)
		}
	}
	return errs
}

// openOracle sets cfg's effects oracle from --effects-url and reads it
// once, before the run: a database that cannot be read is bad input (exit
// 2) with one line saying what to fix. It returns what closes it.
func openOracle(ctx context.Context, f *runFlags, p *plan, cfg *simulator.Config) (func(), error) {
	cfg.SettleQuiet = p.oracle.settleQuiet
	cfg.Effects, cfg.EffectsExact = nil, false
	if !p.oracle.db {
		cfg.Oracle = simulator.OracleAt(f.effectsURL, f.allowRemote)
		return func() {}, nil
	}
	o, err := simulator.OpenDatabaseOracle(ctx, p.oracle.src, f.oracleFlags.effectsQuery, f.oracleFlags.pendingQuery, f.allowRemote, p.settle)
	if err != nil {
		return func() {}, badInput(advice.Oracle(err))
	}
	cfg.Oracle = o
	return func() { o.Close() }, nil
}
