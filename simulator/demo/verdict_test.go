package demo_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/retrysim/retrysim/policies"
	"github.com/retrysim/retrysim/policies/policytest"
	"github.com/retrysim/retrysim/report"
	"github.com/retrysim/retrysim/scenarios"
	"github.com/retrysim/retrysim/scenarios/scenariotest"
	"github.com/retrysim/retrysim/simulator"
	"github.com/retrysim/retrysim/simulator/capture"
	"github.com/retrysim/retrysim/simulator/capture/capturetest"
	"github.com/retrysim/retrysim/simulator/demo"
)

func newHandler(t *testing.T, mode demo.Mode, opts ...demo.Option) *demo.Handler {
	t.Helper()
	h, err := demo.New(mode, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	return h
}

// runAgainst runs a policy and scenario against h in process and returns
// the run's summary and its records.
func runAgainst(t *testing.T, h *demo.Handler, policy string, sc scenarios.Scenario, events int) (*report.Summary, []simulator.Record) {
	t.Helper()
	return runWith(t, h, h.Effects, policy, sc, events)
}

// runAgainstNoOracle is runAgainst with no effects oracle: the handler's
// work is not waited for.
func runAgainstNoOracle(t *testing.T, h *demo.Handler, policy string, sc scenarios.Scenario, events int) (*report.Summary, []simulator.Record) {
	t.Helper()
	return runWith(t, h, nil, policy, sc, events)
}

func runWith(t *testing.T, h *demo.Handler, effects simulator.EffectsFunc, policy string, sc scenarios.Scenario, events int) (*report.Summary, []simulator.Record) {
	t.Helper()
	pol := policytest.Lookup(t, policy)
	var recs []simulator.Record
	_, err := simulator.Run(context.Background(), simulator.Config{
		Policy: pol, Scenario: sc, Handler: h, Events: events, Secret: policies.GenerateSecret(pol.Provider, 1),
		Sink: simulator.Collect(&recs), Effects: effects,
		// A restart fault restarts the in-process handler: a new process
		// over the same database.
		Restart: func(context.Context) error { h.Restart(); return nil },
	})
	if err != nil {
		t.Fatal(err)
	}
	runs, err := report.Summarize(recs)
	if err != nil {
		t.Fatal(err)
	}
	return runs[0], recs
}

var providers = []string{"stripe", "github", "shopify", "twilio", "slack", "discord"}

// The idempotent handler stays idempotent under every built-in scenario,
// for every provider.
func TestIdempotentUnderEveryScenario(t *testing.T) {
	for _, name := range scenarios.Builtin() {
		for _, p := range providers {
			t.Run(name+"/"+p, func(t *testing.T) {
				t.Parallel()
				run, _ := runAgainst(t, newHandler(t, demo.Idempotent), p, scenariotest.Lookup(t, name), 20)
				// IDEMPOTENT wherever a duplicate put it to the test; where
				// none reached it, no verdict, and the report says why.
				want := report.Idempotent
				if run.DuplicateArrivals == 0 {
					want = report.NoVerdict
				}
				if run.Verdict() != want || (want == report.NoVerdict) != (run.Untested() != "") {
					t.Errorf("verdict %s, want %s (%d duplicate arrivals): %s", run.Verdict(), want, run.DuplicateArrivals, run.VerdictLine())
				}
				// Every event that reached the handler was processed, once.
				// (A replay attack's original is a valid request of its own,
				// on an id the workload never sends: not an event.)
				processed := 0
				for id := range run.Effects {
					if !run.IsAttackID(id) {
						processed++
					}
				}
				// (Replays no signature can catch are duplicate arrivals of
				// such an id, beside the deliveries.)
				if reached := run.HandlerArrivals - (run.DuplicateArrivals - run.ReplayArrivals); !run.EffectsKnown || processed != reached {
					t.Errorf("%d events processed, %d reached the handler: %s", processed, reached, run.VerdictLine())
				}
			})
		}
	}
}

// Each mistaken mode is right until the circumstance that breaks it, and
// then wrong. Lost answers (flaky-network) break only the naive handler.
func TestVerdictUnderLostAnswers(t *testing.T) {
	for _, tc := range []struct {
		mode demo.Mode
		want report.Verdict
	}{
		{demo.Naive, report.NotIdempotent},
		{demo.Memory, report.Idempotent},
		{demo.CheckThenAct, report.Idempotent},
		{demo.Idempotent, report.Idempotent},
		// Answering first and crediting from a worker changes nothing when
		// the worker is guarded; unguarded, every duplicate is credited,
		// after its answer.
		{demo.Queue, report.Idempotent},
		{demo.QueueUnguarded, report.NotIdempotent},
	} {
		t.Run(string(tc.mode), func(t *testing.T) {
			t.Parallel()
			run, _ := runAgainst(t, newHandler(t, tc.mode), "stripe", scenariotest.Lookup(t, "flaky-network"), 40)
			if run.DuplicateArrivals == 0 {
				t.Fatal("no duplicate reached the handler: the test shows nothing")
			}
			if run.Verdict() != tc.want {
				t.Errorf("verdict %s, want %s: %s", run.Verdict(), tc.want, run.VerdictLine())
			}
			if tc.want == report.NotIdempotent {
				// Every duplicate arrival was processed again.
				extra := 0
				for _, n := range run.Effects {
					extra += n - 1
				}
				if extra != run.DuplicateArrivals {
					t.Errorf("%d extra effects for %d duplicate arrivals", extra, run.DuplicateArrivals)
				}
			}
		})
	}
}

// The built-in scenarios that model each mistake break exactly the handler
// that makes it: duplicate-burst (two deliveries at once) breaks
// check-then-act, crash-restart (the process killed and started again)
// breaks the in-memory dedup; naive breaks under both, idempotent under
// neither.
func TestVerdictUnderBuiltinFaults(t *testing.T) {
	want := map[demo.Mode]map[string]report.Verdict{
		demo.Naive:        {"duplicate-burst": report.NotIdempotent, "crash-restart": report.NotIdempotent},
		demo.Memory:       {"duplicate-burst": report.Idempotent, "crash-restart": report.NotIdempotent},
		demo.CheckThenAct: {"duplicate-burst": report.NotIdempotent, "crash-restart": report.Idempotent},
		demo.Idempotent:   {"duplicate-burst": report.Idempotent, "crash-restart": report.Idempotent},
	}
	for _, mode := range []demo.Mode{demo.Naive, demo.Memory, demo.CheckThenAct, demo.Idempotent} {
		for _, sc := range []string{"duplicate-burst", "crash-restart"} {
			t.Run(string(mode)+"/"+sc, func(t *testing.T) {
				t.Parallel()
				run, _ := runAgainst(t, newHandler(t, mode), "stripe", scenariotest.Lookup(t, sc), 20)
				if run.DuplicateArrivals == 0 {
					t.Fatal("no duplicate reached the handler: the test shows nothing")
				}
				if run.Verdict() != want[mode][sc] {
					t.Errorf("verdict %s, want %s: %s", run.Verdict(), want[mode][sc], run.VerdictLine())
				}
			})
		}
	}
}

func replayOnce(t *testing.T, h *demo.Handler, concurrent bool, times int) *simulator.ReplayResult {
	t.Helper()
	c, err := capture.Parse(capturetest.Bytes(t, "stripe.http"), capture.Options{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := simulator.Replay(context.Background(), simulator.ReplayConfig{
		Capture: c, Handler: h, Times: times, Concurrent: concurrent, Secret: policies.GenerateSecret("stripe", 1), Effects: h.Effects,
	})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// Overlapping deliveries of one event (the provider sending again while the
// first is still being handled) break check-then-act and nothing else that
// passed above.
func TestVerdictUnderOverlap(t *testing.T) {
	for _, tc := range []struct {
		mode demo.Mode
		want simulator.Verdict
	}{
		{demo.Naive, simulator.VerdictNotIdempotent},
		{demo.Memory, simulator.VerdictIdempotent},
		{demo.CheckThenAct, simulator.VerdictNotIdempotent},
		{demo.Idempotent, simulator.VerdictIdempotent},
	} {
		t.Run(string(tc.mode), func(t *testing.T) {
			res := replayOnce(t, newHandler(t, tc.mode), true, 10)
			if res.Verdict() != tc.want {
				t.Errorf("verdict %s with %d writes, want %s", res.Verdict(), res.Writes(), tc.want)
			}
		})
	}
}

// A restart (a new handler over the same database) breaks the in-memory
// dedup: the next delivery of an event it had processed writes again.
func TestVerdictAcrossARestart(t *testing.T) {
	for _, tc := range []struct {
		mode   demo.Mode
		writes int
	}{
		{demo.Memory, 2},
		{demo.CheckThenAct, 1},
		{demo.Idempotent, 1},
	} {
		t.Run(string(tc.mode), func(t *testing.T) {
			db := filepath.Join(t.TempDir(), "demo.db")
			before := newHandler(t, tc.mode, demo.WithDB(db))
			if res := replayOnce(t, before, false, 2); res.Writes() != 1 {
				t.Fatalf("before the restart: %d writes, want 1", res.Writes())
			}
			before.Close()
			after := newHandler(t, tc.mode, demo.WithDB(db))
			res := replayOnce(t, after, false, 2)
			total, _ := after.Effects(context.Background())
			if total[res.DedupID] != tc.writes {
				t.Errorf("after the restart the event was processed %d times in all, want %d", total[res.DedupID], tc.writes)
			}
		})
	}
}

// The ttl handler leaks a duplicate exactly when the event's arrivals span
// more than its TTL from the key: for every event and every TTL, it
// processed the event again if and only if some arrival came more than the
// TTL after the first one it processed. The report's TTL table counts the
// same leaks.
func TestTTLLeaksExactlyPastItsTTL(t *testing.T) {
	// Answers lost at random make retry chains of every length, so arrival
	// spans range from minutes to hours.
	sc, err := scenarios.Decode("lossy.yaml", []byte("name: lossy\nfaults:\n  - type: lost-response\n    probability: 0.6\n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, ttl := range []time.Duration{time.Minute, 10 * time.Minute, 30 * time.Minute, 2 * time.Hour, 4 * policies.Day} {
		t.Run(policies.FormatDuration(ttl), func(t *testing.T) {
			run, recs := runAgainst(t, newHandler(t, demo.TTL, demo.WithTTL(ttl)), "stripe", sc, 50)
			key := map[string]time.Time{}
			leaks := map[string]bool{}
			for _, r := range recs {
				if r.Kind != simulator.KindAttempt || !r.Reached {
					continue
				}
				k, ok := key[r.EventID]
				switch {
				case !ok:
					key[r.EventID] = r.Time
				case r.Time.Sub(k) > ttl:
					leaks[r.EventID] = true
				}
			}
			leaked := 0
			for id := range key {
				if processedAgain := run.Effects[id] > 1; processedAgain != leaks[id] {
					t.Errorf("event %s: processed %d times, but an arrival more than %s after its key: %v", id, run.Effects[id], policies.FormatDuration(ttl), leaks[id])
				}
				if leaks[id] {
					leaked++
				}
			}
			table := run.TTL([]time.Duration{ttl}).Choices[0].LeakedArrivals
			if (table > 0) != (leaked > 0) || (run.Verdict() == report.NotIdempotent) != (leaked > 0) {
				t.Errorf("%d events leaked; the TTL table counts %d leaked arrivals; verdict %s", leaked, table, run.Verdict())
			}
			t.Logf("TTL %s: %d of %d events leaked; longest span from a key %s", policies.FormatDuration(ttl), leaked, len(key), policies.FormatDuration(run.ObservedNeed))
		})
	}
}
