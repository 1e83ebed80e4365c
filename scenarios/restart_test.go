package scenarios_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/retrysim/retrysim/scenarios/scenariotest"
	"github.com/retrysim/retrysim/simulator"
)

// memoryDedup is a handler that remembers processed ids in memory only: a
// restart makes it forget.
type memoryDedup struct {
	mu        sync.Mutex
	seen      map[string]bool
	processed map[string]int // the side effect, kept across restarts
	log       []string       // arrivals and restarts, in the order they happened
	times     []time.Time    // the virtual time of each log entry (restarts: zero)
}

func (m *memoryDedup) arrive(a arrival) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.log, m.times = append(m.log, a.ID), append(m.times, a.Virtual)
	if !m.seen[a.ID] {
		m.seen[a.ID] = true
		m.processed[a.ID]++
	}
}

func (m *memoryDedup) restart(context.Context) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.seen = map[string]bool{}
	m.log, m.times = append(m.log, "restart"), append(m.times, time.Time{})
	return nil
}

func TestRestart(t *testing.T) {
	lost := pair{simulator.LostResponse, true}
	m := &memoryDedup{seen: map[string]bool{}, processed: map[string]int{}}
	h := &logHandler{during: m.arrive}
	s := scenariotest.Faults(t, `faults:
  - {type: restart, at: [20m], interval: 20m, from: 20m, until: 50m}
  - {type: lost-response, attempts: [1, 2]}`)
	const events = 12
	r := runFault(t, testPolicy(t, ""), s, h, events, func(c *simulator.Config) { c.Restart = m.restart })
	checkPairs(t, r, events, same(lost, lost, delivered))
	checkArrivals(t, r, h)

	restarts := []time.Duration{20 * time.Minute, 40 * time.Minute}
	if len(r.restarts) != len(restarts) || r.res.Restarts != len(restarts) {
		t.Fatalf("%d restart records, result %d, want %d", len(r.restarts), r.res.Restarts, len(restarts))
	}
	for i, rec := range r.restarts {
		if at := rec.Time.Sub(simulator.DefaultStart()); at != restarts[i] || rec.Restart != i+1 {
			t.Errorf("restart %d at +%s (n %d), want +%s", i+1, at, rec.Restart, restarts[i])
		}
	}
	// A restart is a barrier: every arrival logged before the k-th
	// restart happened before its virtual moment, every one after it, after.
	k := 0
	for i, entry := range m.log {
		if entry == "restart" {
			k++
			continue
		}
		at := m.times[i].Sub(simulator.DefaultStart())
		if (k < len(restarts) && at >= restarts[k]) || (k > 0 && at < restarts[k-1]) {
			t.Errorf("arrival at +%s was handled after %d restart(s)", at, k)
		}
	}
	// An event is processed twice exactly when a restart falls between its
	// first arrival and its last (attempts at +0, +1m, +11m).
	first := firsts(r)
	twice := 0
	for seq := range events {
		want := 1
		for _, rs := range restarts {
			if first[seq] < rs && rs <= first[seq]+11*time.Minute {
				want = 2
			}
		}
		id := r.attempts[0].EventID
		for _, a := range r.attempts {
			if a.Seq == seq {
				id = a.EventID
			}
		}
		if got := m.processed[id]; got != want {
			t.Errorf("event %d (first at +%s) processed %d times, want %d", seq, first[seq], got, want)
		}
		if want == 2 {
			twice++
		}
	}
	if twice == 0 {
		t.Errorf("no event straddled a restart: the test proves nothing")
	}
}

func TestRestartNeedsAHook(t *testing.T) {
	_, err := simulator.Run(context.Background(), simulator.Config{
		Policy: testPolicy(t, ""), Scenario: scenariotest.Faults(t, "faults: [{type: restart, at: [1m]}]"), URL: "http://127.0.0.1:1/",
	})
	if err == nil {
		t.Fatal("a scenario that restarts the handler ran with no way to restart it")
	}
}
