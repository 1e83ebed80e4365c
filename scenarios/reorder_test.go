package scenarios_test

import (
	"testing"
	"time"

	"github.com/retrysim/retrysim/scenarios/scenariotest"
	"github.com/retrysim/retrysim/simulator"
)

func TestReorder(t *testing.T) {
	const events = 8 // two objects: events 0, 2, 4, 6 and 1, 3, 5, 7
	h := &logHandler{}
	r := runFault(t, testPolicy(t, ""), scenariotest.Faults(t, "faults: [{type: reorder, every: 2}]"), h, events)
	first := firsts(r)
	objects := map[int]string{}
	for _, a := range r.attempts {
		objects[a.Seq] = a.Object
	}
	for seq := range events {
		if objects[seq] == "" || objects[seq] != objects[seq%2] {
			t.Fatalf("event %d is about %q, want the object of event %d (%q)", seq, objects[seq], seq%2, objects[seq%2])
		}
	}
	if objects[0] == objects[1] {
		t.Fatalf("events 0 and 1 are about the same object %q", objects[0])
	}
	checkPairs(t, r, events, func(seq int) []pair {
		next := seq + 2
		if seq%2 != 0 || next >= events {
			return []pair{delivered}
		}
		return windowPairs(first[seq], func(at time.Duration) bool { return at <= first[next] })
	})
	checkArrivals(t, r, h)
	if n := reorderedPairs(r.attempts); n == 0 {
		t.Errorf("no pair of events about one object reached the handler out of order")
	}
}

// reorderedPairs counts pairs of events about one object whose first
// arrivals came in the opposite order to the events' creation.
func reorderedPairs(attempts []simulator.Record) int {
	firstArrival := map[int]time.Time{}
	object := map[int]string{}
	for _, a := range attempts {
		if _, seen := firstArrival[a.Seq]; a.Reached && !seen {
			firstArrival[a.Seq], object[a.Seq] = a.Time, a.Object
		}
	}
	n := 0
	for x, tx := range firstArrival {
		for y, ty := range firstArrival {
			if x < y && object[x] == object[y] && ty.Before(tx) {
				n++
			}
		}
	}
	return n
}
