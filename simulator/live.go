package simulator

import (
	"math"
	"time"

	"github.com/retrysim/retrysim/policies"
)

// eventState is what the engine keeps about an event in flight. It is small
// on purpose: a model run may have a million events in flight at once.
type eventState struct {
	// names is the dedup id followed by the object the event is about, in
	// one string (one allocation) split at split.
	names string
	first time.Duration // virtual time of the first attempt, since the run's start
	// When the next event about the same object first arrives is not
	// kept: the workload gives it from the seed (workload.nextOrNone).
	// at is when the event's pending attempt (number attempts+1) is due,
	// as nanoseconds since the run's start; stage is where that attempt is
	// (queued, waiting, sent, reached): the scheduler's view of the event.
	at       int64
	attempts int32 // attempts made so far
	split    uint16
	stage    stage
	inFlight bool
	reached  bool // a request of the event has reached the handler
	held     bool // the provider held the pending attempt back once already
	paused   bool // the endpoint is disabled for a while when the pending attempt is due
	// scheduleFate is the fate its automatic schedule came to (an index
	// in scheduleFates) when a manual redelivery is still to come: its
	// next attempt is that one. 0 while the schedule runs.
	scheduleFate uint8
	// subs are, for an event sent through several subscriptions
	// (fan-out), the subscriptions whose deliveries are still retried, a
	// bit each; 0 before its first fanned-out attempt, between a finished
	// schedule and a manual redelivery, and without fan-out.
	// subDelivered says one subscription's delivery succeeded: the event
	// is delivered whatever the others' come to. (Both sit in what was
	// padding: an event in flight costs no more for them.)
	subs         uint16
	subDelivered bool
	// req is what building a request needs; nil in a dry run, which sends
	// nothing.
	req *requestState
}

// stage is where an event's pending attempt is.
type stage uint8

const (
	stageQueued  stage = iota // in the queue
	stageWaiting              // held back by a coupling
	stageSent                 // sent; no request of it has reached the handler yet
	stageReached              // a request reached the handler, or the attempt is over
	stageDone                 // its last attempt is over; its fate is still to commit
)

func newEventState(id, object string, first time.Duration) eventState {
	return eventStateOf(id+object, len(id), first)
}

// eventStateOf is newEventState with the id and the object already in one
// string, the id its first split bytes.
func eventStateOf(names string, split int, first time.Duration) eventState {
	if split > math.MaxUint16 {
		panic("simulator: a dedup id longer than 64 KiB")
	}
	return eventState{names: names, split: uint16(split), first: first}
}

// id is the event's dedup id.
func (st *eventState) id() string { return st.names[:st.split] }

// object names what the event is about.
func (st *eventState) object() string { return st.names[st.split:] }

// scheduleFates are the fates an event's automatic schedule can come to,
// by code; 0 is none.
var scheduleFates = []string{"", FateDelivered, FateExhausted, FateDisabled, FateStopped, FateInterrupted}

func fateCode(fate string) uint8 {
	for i, f := range scheduleFates {
		if f == fate {
			return uint8(i)
		}
	}
	panic("simulator: unknown fate " + fate)
}

// requestState is the part of an event's state only real requests need.
type requestState struct {
	ev     policies.Event
	body   []byte
	ctype  string
	reason string // Slack's word for why the last attempt failed
	// in is the real delivery the event stands for, nil for a generated
	// event.
	in *Incoming
}

// liveEvents holds the events in flight, indexed by their place in the
// workload. Events start in order, so they occupy a window of indexes
// [lo, next); the window's storage is a list of fixed-size chunks, dropped
// from the front (and reused at the back) as the oldest events end, so
// memory follows the events in flight (and those started after the oldest
// of them), not the events simulated, and nothing is ever copied.
type liveEvents struct {
	chunks []*slotChunk // chunks[0] holds the events from base
	base   int
	lo     int // no event before lo is in flight
	next   int // the event the next add starts
	n      int // events in flight
	free   []*slotChunk
}

// slotLen is the number of events in a chunk of slots.
const slotLen = 1024

type slotChunk [slotLen]eventState

// add starts event, which must be the next one after the last added.
func (l *liveEvents) add(event int, st eventState) {
	if l.n == 0 && len(l.chunks) > 0 && event >= l.next {
		// Nothing in flight: start the window afresh at event, rather
		// than fill the gap up to it with empty slots.
		l.free = append(l.free, l.chunks...)
		clear(l.chunks)
		l.chunks = l.chunks[:0]
	}
	if len(l.chunks) == 0 {
		l.base, l.lo, l.next = event, event, event
	}
	if event < l.next {
		panic("simulator: events must start in order")
	}
	// Events another shard runs, or lost unstarted, leave empty slots.
	i := event - l.base
	for i/slotLen >= len(l.chunks) {
		l.chunks = append(l.chunks, l.newChunk())
	}
	st.inFlight = true
	l.chunks[i/slotLen][i%slotLen] = st
	l.next = event + 1
	l.n++
}

// get returns the state of event, nil when it is not in flight.
func (l *liveEvents) get(event int) *eventState {
	if event < l.lo || event >= l.next {
		return nil
	}
	i := event - l.base
	st := &l.chunks[i/slotLen][i%slotLen]
	if !st.inFlight {
		return nil
	}
	return st
}

// remove forgets event.
func (l *liveEvents) remove(event int) {
	st := l.get(event)
	if st == nil {
		return
	}
	*st = eventState{}
	l.n--
	for l.lo < l.next && l.get(l.lo) == nil {
		l.lo++
		if l.lo-l.base == slotLen {
			l.free = append(l.free, l.chunks[0])
			l.chunks[0] = nil
			l.chunks = l.chunks[1:]
			l.base += slotLen
		}
	}
}

func (l *liveEvents) newChunk() *slotChunk {
	if n := len(l.free); n > 0 {
		c := l.free[n-1]
		l.free = l.free[:n-1]
		return c
	}
	return new(slotChunk)
}

// pending lists the events in flight, in workload order.
func (l *liveEvents) pending() []int {
	out := make([]int, 0, l.n)
	for ev := l.lo; ev < l.next; ev++ {
		if l.get(ev) != nil {
			out = append(out, ev)
		}
	}
	return out
}
