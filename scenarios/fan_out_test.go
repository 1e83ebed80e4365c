package scenarios_test

import (
	"net/http"
	"slices"
	"sync"
	"testing"

	"github.com/retrysim/retrysim/scenarios"
	"github.com/retrysim/retrysim/scenarios/scenariotest"
)

func TestFanOut(t *testing.T) {
	// GitHub-shaped: every hook subscribed to the event gets the same
	// X-GitHub-Delivery and its own X-GitHub-Hook-ID, at once, with no
	// failure needed.
	var mu sync.Mutex
	hooks := map[string][]string{}
	h := &logHandler{answer: func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		d := r.Header.Get("X-GitHub-Delivery")
		hooks[d] = append(hooks[d], r.Header.Get("X-GitHub-Hook-ID"))
		mu.Unlock()
		w.WriteHeader(http.StatusOK)
	}}
	r := runFault(t, testPolicy(t, ""), scenariotest.Faults(t, "faults: [{type: fan-out, subscriptions: 3}]"), h, 4)
	checkPairs(t, r, 4, func(int) []pair { return repeat(delivered, 3) })
	checkArrivals(t, r, h)
	subs := map[int][]int{}
	for _, a := range r.attempts {
		if a.Attempt != 1 {
			t.Errorf("event %d: attempt %d; a delivered fan-out needs no retry", a.Seq, a.Attempt)
		}
		subs[a.Seq] = append(subs[a.Seq], a.Subscription)
	}
	for seq, s := range subs {
		slices.Sort(s)
		if !slices.Equal(s, []int{0, 1, 2}) {
			t.Errorf("event %d: subscriptions %v, want [0 1 2]", seq, s)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if len(hooks) != 4 {
		t.Fatalf("%d delivery ids reached the handler, want one per event (4): %v", len(hooks), hooks)
	}
	for d, ids := range hooks {
		slices.Sort(ids)
		if len(slices.Compact(ids)) != 3 {
			t.Errorf("delivery %s came with hook ids %v, want 3 different ones", d, ids)
		}
	}
}

func TestFanOutValidate(t *testing.T) {
	for _, n := range []string{"0", "1", "17"} {
		if _, err := scenarios.Decode("test.yaml", []byte("name: test\nfaults: [{type: fan-out, subscriptions: "+n+"}]")); err == nil {
			t.Errorf("subscriptions %s: accepted", n)
		}
	}
}
