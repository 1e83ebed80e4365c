package report_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"

	"github.com/retrysim/retrysim/policies"
	"github.com/retrysim/retrysim/report"
	"github.com/retrysim/retrysim/scenarios"
	"github.com/retrysim/retrysim/simulator"
)

// naiveLedger credits every delivery, duplicates included, and serves its
// side effects as {"<event id>": <times credited>}.
type naiveLedger struct {
	mu      sync.Mutex
	credits map[string]int
}

func (l *naiveLedger) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if r.Method == http.MethodGet {
		json.NewEncoder(w).Encode(l.credits)
		return
	}
	var ev struct{ ID string }
	body, _ := io.ReadAll(r.Body)
	json.Unmarshal(body, &ev)
	l.credits[ev.ID]++
}

// Summarize turns the records a run produced into a verdict a Go test can
// assert on.
func ExampleSummarize() {
	stripe, _ := policies.Lookup("stripe")
	flaky, _ := scenarios.Lookup("flaky-network")
	h := &naiveLedger{credits: map[string]int{}}
	var recs []simulator.Record
	_, err := simulator.Run(context.Background(), simulator.Config{
		Policy: stripe, Scenario: flaky, Handler: h, Events: 10,
		RunID:   "example", // fixed, so the ids below are too
		Sink:    simulator.Collect(&recs),
		Effects: simulator.EffectsFromHandler(h, "/_retrysim/effects"),
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	runs, err := report.Summarize(recs)
	if err != nil {
		fmt.Println(err)
		return
	}
	r := runs[0]
	fmt.Println(r.Verdict())
	for _, o := range r.OffenderCounts() {
		fmt.Printf("%s processed %d times\n", o.ID, o.Times)
	}
	// Output:
	// not_idempotent
	// evt_1OYgvZKVEVWJXTuXmAf8cJm6 processed 2 times
	// evt_1QQQEGF81DJxob49WZMoxkDN processed 3 times
}

// CheckGates is what `retrysim run --fail-on` does: each gate against each
// run, with the reason in words.
func ExampleCheckGates() {
	slack, _ := policies.Lookup("slack")
	var recs []simulator.Record
	_, err := simulator.Run(context.Background(), simulator.Config{
		Policy: slack, DryRun: true, Events: 5, Sink: simulator.Collect(&recs),
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	runs, _ := report.Summarize(recs)
	gates, _ := report.ParseGates([]string{"lost-events,ttl-too-short"})
	for _, g := range report.CheckGates(runs, gates, report.GateOptions{TTLConfigured: 5 * time.Minute}) {
		fmt.Printf("%s %s: %s\n", g.Status, g.Gate, g.Message)
	}
	// Output:
	// pass lost-events: all 5 events were delivered
	// fail ttl-too-short: a 5m TTL is shorter than the 5m31s a dedup key must last (slack retries for 5m31s; longest wait seen from a key to a duplicate 0s): a retry after the key expired is processed again; recommend 10m
}
