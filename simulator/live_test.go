package simulator

import (
	"slices"
	"strconv"
	"testing"
	"unsafe"

	"github.com/retrysim/retrysim/policies"
)

// The engine finds every event in flight, and only those, however events
// end; and an event's state costs memory only while it may be in flight.
func TestLiveEvents(t *testing.T) {
	l := liveEvents{withExt: true}
	r := policies.NewRand(5)
	var order []int // the events in flight, oldest first
	next := 0
	for step := range 20_000 {
		// Start events in order; end a random one in flight, usually an old one.
		if step%5 < 3 || len(order) == 0 { // three starts for two ends
			l.add(next, eventState{n: uint16(next)}, newEventExt("evt_"+strconv.Itoa(next), "obj_"+strconv.Itoa(next%7), 0))
			order = append(order, next)
			next++
			continue
		}
		i := r.IntN(min(len(order), 8))
		ev := order[i]
		order = slices.Delete(order, i, i+1)
		l.remove(ev)
		if l.get(ev) != nil {
			t.Fatalf("event %d still found after it ended", ev)
		}
	}
	inFlight := map[int]bool{}
	for _, ev := range order {
		inFlight[ev] = true
	}
	for ev := range next + 10 {
		st := l.get(ev)
		if (st != nil) != inFlight[ev] {
			t.Fatalf("event %d: found %v, in flight %v", ev, st != nil, inFlight[ev])
		}
		if st == nil {
			continue
		}
		if x := l.ext(ev); st.n != uint16(ev) || x.id() != "evt_"+strconv.Itoa(ev) || x.object() != "obj_"+strconv.Itoa(ev%7) {
			t.Fatalf("event %d has the state of another: %q, %q", ev, x.id(), x.object())
		}
	}
	pending := l.pending()
	if len(pending) != len(inFlight) || l.n != len(inFlight) || !slices.IsSorted(pending) {
		t.Errorf("pending lists %d events (sorted: %v), %d in flight", len(pending), slices.IsSorted(pending), len(inFlight))
	}
	// Storage covers the window from the oldest event in flight, not the
	// 12,000 events started.
	if span := len(l.chunks) * slotLen; span > next-order[0]+2*slotLen {
		t.Errorf("%d slots kept for a window of %d events", span, next-order[0])
	}
}

// An event in flight costs the engine four bytes, whatever its attempts,
// schedule fate and fan-out subscriptions: ten million events against a
// black hole are all in flight at once.
func TestEventStateBits(t *testing.T) {
	if size := unsafe.Sizeof(eventState{}); size != 4 {
		t.Errorf("eventState is %d bytes, want 4", size)
	}
	var st eventState
	st.setAttempts(policies.MaxAttemptsCap + 1) // a full schedule and a manual redelivery
	st.setScheduleFate(fateCode(scheduleFates[len(scheduleFates)-1]))
	if st.attempts() != policies.MaxAttemptsCap+1 || st.scheduleFate() != uint8(len(scheduleFates)-1) {
		t.Errorf("attempts %d, schedule fate %d: want %d, %d", st.attempts(), st.scheduleFate(), policies.MaxAttemptsCap+1, len(scheduleFates)-1)
	}
	st.setAttempts(3)
	if st.attempts() != 3 || st.scheduleFate() != uint8(len(scheduleFates)-1) {
		t.Errorf("after setting the attempts: %d, schedule fate %d", st.attempts(), st.scheduleFate())
	}
}
