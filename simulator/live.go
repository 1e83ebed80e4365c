package simulator

import (
	"time"

	"github.com/retrysim/retrysim/policies"
)

// eventState is what the engine keeps about an event in flight. It is small
// on purpose: a model run may have a million events in flight at once.
type eventState struct {
	id       string        // the dedup id
	first    time.Duration // virtual time of the first attempt, since the run's start
	attempts int32         // attempts made so far
	inFlight bool
	// req is what building a request needs; nil in a dry run, which sends
	// nothing.
	req *requestState
}

// requestState is the part of an event's state only real requests need.
type requestState struct {
	ev     policies.Event
	body   []byte
	ctype  string
	reason string // Slack's word for why the last attempt failed
}

// liveEvents holds the events in flight, indexed by their place in the
// workload. Events start in order, so they occupy a window of indexes from
// base; the window's front moves on as its oldest events end, and its
// storage is reused, so memory follows the events in flight (and those
// started after the oldest of them), not the events simulated.
type liveEvents struct {
	base  int          // the event in slots[0]
	slots []eventState // buf[head:]
	buf   []eventState
	head  int
	n     int // events in flight
}

// add starts event, which must be the next one after the last added.
func (l *liveEvents) add(event int, st eventState) {
	if len(l.slots) == 0 {
		l.base = event
	}
	if len(l.buf) == cap(l.buf) && l.head > 0 && l.head >= len(l.slots) {
		// Move the window to the front of its storage rather than grow it.
		n := copy(l.buf, l.slots)
		clear(l.buf[n:])
		l.buf, l.head = l.buf[:n], 0
	}
	st.inFlight = true
	l.buf = append(l.buf, st)
	l.slots = l.buf[l.head:]
	l.n++
}

// get returns the state of event, nil when it is not in flight.
func (l *liveEvents) get(event int) *eventState {
	i := event - l.base
	if i < 0 || i >= len(l.slots) || !l.slots[i].inFlight {
		return nil
	}
	return &l.slots[i]
}

// remove forgets event.
func (l *liveEvents) remove(event int) {
	st := l.get(event)
	if st == nil {
		return
	}
	*st = eventState{}
	l.n--
	for len(l.slots) > 0 && !l.slots[0].inFlight {
		l.slots = l.slots[1:]
		l.head++
		l.base++
	}
}

// pending lists the events in flight, in workload order.
func (l *liveEvents) pending() []int {
	out := make([]int, 0, l.n)
	for i := range l.slots {
		if l.slots[i].inFlight {
			out = append(out, l.base+i)
		}
	}
	return out
}
