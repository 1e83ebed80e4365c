package simulator

import (
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/retrysim/retrysim/policies/policytest"
	"github.com/retrysim/retrysim/scenarios/scenariotest"
)

// A fanned-out attempt is one request per subscription, recorded with its
// subscription, all with the event's dedup id.
func TestFannedOutAttempt(t *testing.T) {
	srv := ok200(t)
	sc := scenariotest.Faults(t, "faults: [{type: fan-out, subscriptions: 3}]\n")
	recs, res := collect(t, Config{Policy: policytest.Lookup(t, "shopify"), Scenario: sc, Events: 2, Over: time.Minute, Seed: 1, RunID: "test", URL: srv.URL})
	subs := map[string][]int{}
	for _, r := range attempts(recs) {
		if !r.Reached || r.Attempt != 1 || r.Copy != 0 {
			t.Errorf("attempt %+v: want a first attempt that reached the handler", r)
		}
		subs[r.EventID] = append(subs[r.EventID], r.Subscription)
	}
	if len(subs) != 2 || res.Delivered != 2 {
		t.Fatalf("events %v, delivered %d; want 2 events, each delivered", subs, res.Delivered)
	}
	for id, s := range subs {
		if len(s) != 3 || s[0] != 0 || s[1] != 1 || s[2] != 2 {
			t.Errorf("event %s: subscriptions %v, want [0 1 2]", id, s)
		}
	}
}

// Each subscription's delivery is retried on its own: a handler that
// fails one subscription's delivery (chosen by its X-Shopify-Webhook-Id)
// gets that delivery's every retry, with its webhook id and the event's
// id, and never the other subscription's delivery again; the event is
// delivered, through the subscription that succeeded.
func TestFannedOutRetriesOneSubscription(t *testing.T) {
	srv, seen := failingSomeWebhooks(t)
	p := policytest.Lookup(t, "shopify")
	p.Disable = nil // the failures would disable the endpoint: retries are what this is about
	sc := scenariotest.Faults(t, "faults: [{type: fan-out, subscriptions: 2}]\n")
	const events = 12
	recs, res := collect(t, Config{Policy: p, Scenario: sc, Events: events, Over: time.Minute, Seed: 1, RunID: "test", URL: srv.URL})

	// What the handler saw, per event: its subscriptions' deliveries.
	perEvent := map[string][]string{}
	for k := range seen {
		perEvent[k[0]] = append(perEvent[k[0]], k[1])
	}
	mixed, delivered := 0, 0
	for ev, webhooks := range perEvent {
		if len(webhooks) != 2 {
			t.Fatalf("event %s came with webhook ids %v, want 2", ev, webhooks)
		}
		fails := 0
		for _, wh := range webhooks {
			want := 1
			if failing(wh) {
				want = p.MaxAttempts() // every attempt of the schedule
				fails++
			}
			if got := seen[[2]string{ev, wh}]; got != want {
				t.Errorf("event %s, webhook %s (failing: %v): %d requests, want %d", ev, wh, failing(wh), got, want)
			}
		}
		if fails == 1 {
			mixed++
		}
		if fails < 2 {
			delivered++
		}
	}
	if len(perEvent) != events || mixed == 0 {
		t.Fatalf("%d events, %d with one subscription failing; want %d events, some mixed (pick another seed)", len(perEvent), mixed, events)
	}
	if res.Delivered != delivered || res.Lost != events-delivered {
		t.Errorf("delivered %d, lost %d; want %d delivered (an event is delivered if one subscription's delivery was), %d lost", res.Delivered, res.Lost, delivered, events-delivered)
	}
	// The records say which subscription each request went through: one
	// subscription's once, or on the whole schedule when it failed.
	bySub := map[string][2]int{} // event → attempts per subscription
	for _, r := range attempts(recs) {
		c := bySub[r.EventID]
		c[r.Subscription]++
		bySub[r.EventID] = c
	}
	for ev, c := range bySub {
		for _, n := range c {
			if n != 1 && n != p.MaxAttempts() {
				t.Errorf("event %s: attempts per subscription %v, want 1 or %d each", ev, c, p.MaxAttempts())
			}
		}
		if c[0]+c[1] != seen[[2]string{ev, perEvent[ev][0]}]+seen[[2]string{ev, perEvent[ev][1]}] {
			t.Errorf("event %s: attempts per subscription %v, not the requests the handler saw", ev, c)
		}
	}
}

// An attempt that is never sent (dropped before it left, an outage) fails
// for every subscription it was for: those are retried, and a subscription
// whose delivery already succeeded is not sent again. The retries keep the
// reason of the request that failed (Slack's X-Slack-Retry-Reason).
func TestFannedOutRetryDroppedBeforeSending(t *testing.T) {
	srv, seen := failingSomeWebhooks(t)
	p := policytest.Lookup(t, "shopify")
	p.Disable = nil
	sc := scenariotest.Faults(t, "faults: [{type: fan-out, subscriptions: 2}, {type: drop-request, attempts: [2]}]\n")
	const events = 12
	_, res := collect(t, Config{Policy: p, Scenario: sc, Events: events, Over: time.Minute, Seed: 1, RunID: "test", URL: srv.URL})
	mixed := 0
	perEvent := map[string]int{}
	for k, got := range seen {
		perEvent[k[0]]++
		want := 1
		if failing(k[1]) {
			want = p.MaxAttempts() - 1 // every attempt but the dropped second one
		}
		if got != want {
			t.Errorf("event %s, webhook %s (failing: %v): %d requests, want %d", k[0], k[1], failing(k[1]), got, want)
		}
	}
	for ev := range perEvent {
		fails := 0
		for k := range seen {
			if k[0] == ev && failing(k[1]) {
				fails++
			}
		}
		if fails == 1 {
			mixed++
		}
	}
	if len(perEvent) != events || mixed == 0 {
		t.Fatalf("%d events, %d with one subscription failing; want %d, some mixed", len(perEvent), mixed, events)
	}
	if res.Delivered+res.Lost != events {
		t.Errorf("delivered %d + lost %d, want %d events", res.Delivered, res.Lost, events)
	}
}

// Under fan-out, Slack's retries say why the last request failed, as
// without it.
func TestFannedOutRetryKeepsSlackReason(t *testing.T) {
	var mu sync.Mutex
	reasons := map[string]int{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if reason := r.Header.Get("X-Slack-Retry-Reason"); reason != "" {
			mu.Lock()
			reasons[reason]++
			mu.Unlock()
		}
		w.WriteHeader(http.StatusInternalServerError)
	}))
	t.Cleanup(srv.Close)
	p := policytest.Lookup(t, "slack")
	p.Disable = nil
	sc := scenariotest.Faults(t, "faults: [{type: fan-out, subscriptions: 2}]\n")
	collect(t, Config{Policy: p, Scenario: sc, Events: 3, Over: time.Minute, Seed: 1, RunID: "test", URL: srv.URL})
	if len(reasons) != 1 || reasons["http_error"] == 0 {
		t.Errorf("retry reasons %v, want http_error alone (the handler answered 500)", reasons)
	}
}

// failing says whether failingSomeWebhooks's handler fails a Shopify
// webhook id: by its last character, so about half of them.
func failing(webhook string) bool { return webhook[len(webhook)-1] < '8' }

// failingSomeWebhooks serves a Shopify handler that answers 500 to the
// webhook ids failing picks and 200 to the others, and counts the requests
// per (event id, webhook id) in seen, which the caller reads once the run
// has returned.
func failingSomeWebhooks(t *testing.T) (*httptest.Server, map[[2]string]int) {
	t.Helper()
	var mu sync.Mutex
	seen := map[[2]string]int{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		webhook := r.Header.Get("X-Shopify-Webhook-Id")
		mu.Lock()
		seen[[2]string{r.Header.Get("X-Shopify-Event-Id"), webhook}]++
		mu.Unlock()
		if failing(webhook) {
			w.WriteHeader(http.StatusInternalServerError)
		}
	}))
	t.Cleanup(srv.Close)
	return srv, seen
}
