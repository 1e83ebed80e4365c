package simulator

import (
	"testing"
	"time"

	"github.com/retrysim/retrysim/scenarios/scenariotest"
)

// A fanned-out attempt is one request per subscription, recorded with its
// subscription, all with the event's dedup id.
func TestFannedOutAttempt(t *testing.T) {
	srv := ok200(t)
	sc := scenariotest.Faults(t, "faults: [{type: fan-out, subscriptions: 3}]\n")
	recs, res := collect(t, Config{Policy: mustPolicy(t, "shopify"), Scenario: sc, Events: 2, Over: time.Minute, Seed: 1, RunID: "test", URL: srv.URL})
	subs := map[string][]int{}
	for _, r := range attempts(recs) {
		if !r.Reached || r.Attempt != 1 || r.Copy != 0 {
			t.Errorf("attempt %+v: want a first attempt that reached the handler", r)
		}
		subs[r.Event] = append(subs[r.Event], r.Subscription)
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
