package simulator_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sync"

	"github.com/retrysim/retrysim/policies"
	"github.com/retrysim/retrysim/scenarios"
	"github.com/retrysim/retrysim/simulator"
	"github.com/retrysim/retrysim/simulator/capture"
)

// ledger is a small Stripe webhook handler for the examples: it credits
// every delivery it has not seen before, keyed on the event id, and serves
// its side effects at /_retrysim/effects.
type ledger struct {
	mu      sync.Mutex
	credits map[string]int
}

func (l *ledger) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if r.Method == http.MethodGet {
		json.NewEncoder(w).Encode(l.credits)
		return
	}
	var ev struct{ ID string }
	body, _ := io.ReadAll(r.Body)
	if json.Unmarshal(body, &ev) != nil || ev.ID == "" {
		http.Error(w, "no event id", http.StatusBadRequest)
		return
	}
	if l.credits[ev.ID] == 0 { // dedup on the event id
		l.credits[ev.ID]++
	}
	w.WriteHeader(http.StatusOK)
}

// Run drives an http.Handler in process, with no socket and no sleeping:
// Stripe's three days of retries happen on a fake clock.
func ExampleRun() {
	stripe, _ := policies.Lookup("stripe")
	flaky, _ := scenarios.Lookup("flaky-network")
	h := &ledger{credits: map[string]int{}}
	res, err := simulator.Run(context.Background(), simulator.Config{
		Policy:   stripe,
		Scenario: flaky,
		Handler:  h,
		Events:   50,
		Effects:  simulator.EffectsFromHandler(h, "/_retrysim/effects"),
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	most := 0
	for _, n := range res.Effects {
		most = max(most, n)
	}
	fmt.Printf("%d events, %d attempts, %d reached the handler, all delivered: %v\n", res.Events, res.Attempts, res.Arrivals, res.Delivered == res.Events)
	fmt.Printf("most times one event was processed: %d\n", most)
	// Output:
	// 50 events, 72 attempts, 61 reached the handler, all delivered: true
	// most times one event was processed: 1
}

// Collect gathers the record stream, the contract every report reads.
func ExampleCollect() {
	slack, _ := policies.Lookup("slack")
	var recs []simulator.Record
	_, err := simulator.Run(context.Background(), simulator.Config{
		Policy: slack, DryRun: true, Events: 3, Sink: simulator.Collect(&recs),
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range recs {
		switch r.Kind {
		case simulator.KindAttempt:
			fmt.Printf("attempt %d of event %d: %s\n", r.Attempt, r.Seq, r.Outcome)
		case simulator.KindEvent:
			fmt.Printf("event %d: %s\n", r.Seq, r.Fate)
		default:
			fmt.Println(r.Kind)
		}
	}
	// Output:
	// run
	// attempt 1 of event 0: delivered
	// event 0: delivered
	// attempt 1 of event 1: delivered
	// event 1: delivered
	// attempt 1 of event 2: delivered
	// event 2: delivered
	// end
}

// Replay sends one captured delivery ten times on the provider's schedule
// and asks the oracle after each send whether it wrote.
func ExampleReplay() {
	capture, err := capture.ParseRaw([]byte("POST /webhooks/stripe HTTP/1.1\r\n" +
		"Host: 127.0.0.1:3000\r\n" +
		"Content-Type: application/json\r\n" +
		"Stripe-Signature: t=1767225600,v1=0000\r\n" +
		"\r\n" +
		`{"id":"evt_1Example","object":"event","type":"invoice.payment_succeeded"}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	h := &ledger{credits: map[string]int{}}
	res, err := simulator.Replay(context.Background(), simulator.ReplayConfig{
		Capture: capture,
		Handler: h,
		Secret:  "whsec_example", // re-sign each send with a fresh timestamp
		Effects: simulator.EffectsFromHandler(h, "/_retrysim/effects"),
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, c := range res.Checks() {
		fmt.Println(c.Kind, c.Status)
	}
	j := res.Judge()
	fmt.Println(j.Verdict, j.Reason, j.Writes)
	// report.WriteReplayText words them:
	// ✓ call 1 answered 200 and wrote once
	// ✓ calls 2–10 answered 2xx
	// ✓ calls 2–10 wrote nothing
	// IDEMPOTENT: one write for 10 deliveries of evt_1Example

	// Output:
	// first_call pass
	// later_answers pass
	// later_writes pass
	// idempotent wrote_once 1
}
