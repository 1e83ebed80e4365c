package scenarios_test

import (
	"sync"
	"testing"
	"time"

	"github.com/retrysim/retrysim/scenarios/scenariotest"
)

func TestDuplicate(t *testing.T) {
	// The handler holds each request until the second copy of the same
	// delivery is inside too: both are in the handler at once, or the test
	// fails after a few seconds.
	var mu sync.Mutex
	inside := map[string]int{}
	both := map[string]chan struct{}{}
	overlapped := map[string]bool{}
	h := &logHandler{during: func(a arrival) {
		mu.Lock()
		if both[a.ID] == nil {
			both[a.ID] = make(chan struct{})
		}
		ch := both[a.ID]
		inside[a.ID]++
		if inside[a.ID] == 2 {
			overlapped[a.ID] = true
			close(ch)
		}
		mu.Unlock()
		select {
		case <-ch:
		case <-time.After(5 * time.Second):
		}
	}}
	r := runFault(t, testPolicy(t, ""), scenariotest.Faults(t, "faults: [{type: duplicate, attempts: [1]}]"), h, 4)
	checkPairs(t, r, 4, same(delivered, delivered))
	checkArrivals(t, r, h)
	for _, a := range r.attempts {
		if a.Attempt != 1 {
			t.Errorf("event %d: attempt %d; a delivered duplicate needs no retry", a.Seq, a.Attempt)
		}
	}
	copies := map[int][]int{}
	for _, a := range r.attempts {
		copies[a.Seq] = append(copies[a.Seq], a.Copy)
	}
	for seq, c := range copies {
		if len(c) != 2 || c[0] != 0 || c[1] != 1 {
			t.Errorf("event %d: copies %v, want [0 1]", seq, c)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if len(overlapped) != 4 {
		t.Errorf("%d of 4 events had both requests in the handler at once", len(overlapped))
	}
}
