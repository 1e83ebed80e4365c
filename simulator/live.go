package simulator

import (
	"time"

	"github.com/retrysim/retrysim/policies"
)

// eventState is what the engine keeps about every event in flight. It is
// four bytes with no pointer on purpose: a model run against a black hole
// has every one of its ten million events in flight at once, and what can
// be made again from the seed and the event's place in the workload (its
// dedup id, its object, its first attempt's time) is not kept for it
// (eventExt keeps it for the events that cannot be made again). Nor are an
// event's fan-out subscriptions, which few events have (see engine.subs).
type eventState struct {
	// n holds the attempts made so far (the low attemptBits: at most
	// policies.MaxAttemptsCap and a manual one) and, above them, the fate
	// its automatic schedule came to (an index in scheduleFates) when a
	// manual redelivery is still to come: its next attempt is that one.
	// The fate is 0 while the schedule runs.
	n uint16
	// stage is where the event's pending attempt (number attempts+1) is
	// (queued, waiting, sent, reached): the scheduler's view of the event.
	stage stage
	flags eventFlags
}

// attemptBits is how many low bits of eventState.n count attempts.
const attemptBits = 11

func (st *eventState) attempts() int { return int(st.n & (1<<attemptBits - 1)) }

func (st *eventState) setAttempts(n int) {
	st.n = st.n&^(1<<attemptBits-1) | uint16(n)
}

// scheduleFate is the code of the fate the event's automatic schedule
// came to, 0 while it runs.
func (st *eventState) scheduleFate() uint8 { return uint8(st.n >> attemptBits) }

func (st *eventState) setScheduleFate(code uint8) {
	st.n = st.n&(1<<attemptBits-1) | uint16(code)<<attemptBits
}

// eventFlags are an event's yes-or-no facts, a bit each.
type eventFlags uint8

const (
	flagInFlight eventFlags = 1 << iota
	// flagReached: a request of the event has reached the handler.
	flagReached
	// flagHeld: the provider held the pending attempt back once already.
	flagHeld
	// flagPaused: the endpoint is disabled for a while when the pending
	// attempt is due.
	flagPaused
	// flagSubDelivered: one subscription's delivery succeeded (fan-out):
	// the event is delivered whatever the others' come to.
	flagSubDelivered
	// flagSubs: the event has subscriptions kept in liveEvents.subs (a
	// dry run's; see engine.subs).
	flagSubs
)

func (st *eventState) has(f eventFlags) bool { return st.flags&f != 0 }

// set sets flag f to on.
func (st *eventState) set(f eventFlags, on bool) {
	if on {
		st.flags |= f
	} else {
		st.flags &^= f
	}
}

func (st *eventState) reached() bool      { return st.has(flagReached) }
func (st *eventState) held() bool         { return st.has(flagHeld) }
func (st *eventState) paused() bool       { return st.has(flagPaused) }
func (st *eventState) subDelivered() bool { return st.has(flagSubDelivered) }

// eventExt is what the engine keeps of an event in flight beside its
// eventState when the seed cannot make it again or a request needs it: in
// a run that sends requests, or of real deliveries (Config.Incoming). A
// dry run of generated events keeps none.
type eventExt struct {
	// names is the dedup id followed by the object the event is about, in
	// one string (one allocation) split at split.
	names string
	split int32
	// subs are, for an event sent through several subscriptions
	// (fan-out), the subscriptions whose deliveries are still retried, a
	// bit each (see engine.subs).
	subs  uint16
	first time.Duration // virtual time of the first attempt, since the run's start
	// at is when the event's pending attempt is due, as nanoseconds since
	// the run's start (with eventState.stage, the scheduler's view).
	at int64
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

func newEventExt(id, object string, first time.Duration) eventExt {
	return eventExt{names: id + object, split: int32(len(id)), first: first}
}

// id is the event's dedup id.
func (x *eventExt) id() string { return x.names[:x.split] }

// object names what the event is about.
func (x *eventExt) object() string { return x.names[x.split:] }

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
// of them), not the events simulated, and nothing is ever copied. The
// chunks of eventExt, kept only when the run needs them (withExt), follow
// the same window.
type liveEvents struct {
	chunks  []*slotChunk // chunks[0] holds the events from base
	exts    []*extChunk  // beside chunks, with withExt
	withExt bool
	base    int
	lo      int // no event before lo is in flight
	next    int // the event the next add starts
	n       int // events in flight
	free    []*slotChunk
	freeExt []*extChunk
	// subs are the fan-out subscriptions of the events flagged flagSubs,
	// without withExt (see engine.subs).
	subs map[int]uint16
}

// slotLen is the number of events in a chunk of slots.
const slotLen = 1024

type slotChunk [slotLen]eventState

type extChunk [slotLen]eventExt

// add starts event, which must be the next one after the last added, with
// x its eventExt (ignored without withExt).
func (l *liveEvents) add(event int, st eventState, x eventExt) {
	if l.n == 0 && len(l.chunks) > 0 && event >= l.next {
		// Nothing in flight: start the window afresh at event, rather
		// than fill the gap up to it with empty slots.
		l.free = append(l.free, l.chunks...)
		clear(l.chunks)
		l.chunks = l.chunks[:0]
		l.freeExt = append(l.freeExt, l.exts...)
		clear(l.exts)
		l.exts = l.exts[:0]
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
		if l.withExt {
			l.exts = append(l.exts, l.newExtChunk())
		}
	}
	st.flags |= flagInFlight
	l.chunks[i/slotLen][i%slotLen] = st
	if l.withExt {
		l.exts[i/slotLen][i%slotLen] = x
	}
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
	if !st.has(flagInFlight) {
		return nil
	}
	return st
}

// ext returns the eventExt of event, which must be in flight; nil without
// withExt.
func (l *liveEvents) ext(event int) *eventExt {
	if !l.withExt {
		return nil
	}
	i := event - l.base
	return &l.exts[i/slotLen][i%slotLen]
}

// remove forgets event.
func (l *liveEvents) remove(event int) {
	st := l.get(event)
	if st == nil {
		return
	}
	if st.has(flagSubs) {
		delete(l.subs, event)
	}
	*st = eventState{}
	if x := l.ext(event); x != nil {
		*x = eventExt{}
	}
	l.n--
	for l.lo < l.next && l.get(l.lo) == nil {
		l.lo++
		if l.lo-l.base == slotLen {
			l.free = append(l.free, l.chunks[0])
			l.chunks[0] = nil
			l.chunks = l.chunks[1:]
			if l.withExt {
				l.freeExt = append(l.freeExt, l.exts[0])
				l.exts[0] = nil
				l.exts = l.exts[1:]
			}
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

func (l *liveEvents) newExtChunk() *extChunk {
	if n := len(l.freeExt); n > 0 {
		c := l.freeExt[n-1]
		l.freeExt = l.freeExt[:n-1]
		return c
	}
	return new(extChunk)
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

// eventRef is an event in flight as the code that runs an attempt sees
// it: its state, and its eventExt when the run keeps one (nil in a dry run
// of generated events). Both stay where they are while the event is in
// flight, so a worker may hold them.
type eventRef struct {
	*eventState
	x *eventExt
}

// ref returns event's eventRef; its state is nil when it is not in flight.
func (l *liveEvents) ref(event int) eventRef {
	st := l.get(event)
	if st == nil {
		return eventRef{}
	}
	return eventRef{st, l.ext(event)}
}

// names returns the dedup id and object of event, in flight as st: kept
// for it, or made again from the seed.
func (e *engine) names(event int, st eventRef) (id, object string) {
	if st.x != nil {
		return st.x.id(), st.x.object()
	}
	if event == e.cur.event {
		return e.cur.id, e.cur.object
	}
	names, split := e.work.names(event)
	return names[:split], names[split:]
}

// currentNames are the names of the event whose attempt a dry run is
// making: event's id and object, also as its queue carries them.
type currentNames struct {
	event      int // -1: none
	id, object string
	carried    eventNames
	blk        nameBlock
}

// pop takes the next attempt from the queue, which puts the names it
// carried in e.cur.carried: the current event is none until takeNames.
func (e *engine) pop() due {
	d := e.q.pop()
	e.cur.event = -1
	return d
}

// takeNames makes event, whose attempt was just taken from the queue (or
// started, fresh), the current one, its names those the queue carried,
// or, when it carried none, made from the seed.
func (e *engine) takeNames(event int, fresh bool) {
	c := &e.cur
	if !fresh {
		var ok bool
		if c.id, c.object, ok = c.carried.names(&c.blk); ok {
			c.event = event // pop put the names in c.carried
			return
		}
	}
	names, split := e.work.appendNames(c.carried.b[:0], event)
	if len(names) > len(c.carried.b) {
		c.carried.n = 0
		s := string(names)
		c.id, c.object = s[:split], s[split:]
	} else {
		c.carried.n, c.carried.split = uint8(len(names)), uint8(split)
		c.id, c.object, _ = c.carried.names(&c.blk)
	}
	c.event, c.carried.first = event, e.work.arrival(event)
}

// first is the virtual time of the first attempt of event, in flight as
// st, since the run's start: kept for it, or carried by the queue, or, for
// a generated event in a dry run, its arrival (its first attempt is queued
// at its arrival, and one held back and queued again finds its event
// started).
func (e *engine) first(event int, st eventRef) time.Duration {
	if st.x != nil {
		return st.x.first
	}
	if event == e.cur.event {
		return e.cur.carried.first
	}
	return e.work.arrival(event)
}

// req is what building the requests of an event in flight as st needs;
// nil in a dry run.
func (st eventRef) req() *requestState {
	if st.x != nil {
		return st.x.req
	}
	return nil
}

// delivery is the real delivery an event in flight as st was made from
// (Config.Incoming); nil for a generated event.
func (st eventRef) delivery() *Incoming {
	if req := st.req(); req != nil {
		return req.in
	}
	return nil
}

// setAt notes that the event's pending attempt is due at at and is now at
// stage s (the time is kept only where a coupling may read it: with an
// eventExt).
func (st eventRef) setAt(at int64, s stage) {
	st.stage = s
	if st.x != nil {
		st.x.at = at
	}
}

// subs are the subscriptions of event (in flight as st) whose deliveries
// are still retried, a bit each, for an event sent through several
// subscriptions (fan-out); 0 before its first fanned-out attempt, between
// a finished schedule and a manual redelivery, and without fan-out. They
// are kept beside the event's eventExt, or, in a dry run that keeps none,
// in a map of the few events that have them: a dry run's events in flight
// then cost four bytes each, not six. (A dry run of generated events is
// serial, so the map is never read while it is written.)
func (e *engine) subs(event int, st eventRef) uint16 {
	if st.x != nil {
		return st.x.subs
	}
	if !st.has(flagSubs) {
		return 0
	}
	return e.live.subs[event]
}

// setSubs sets the subscriptions of event, in flight as st, to subs.
func (e *engine) setSubs(event int, st eventRef, subs uint16) {
	if st.x != nil {
		st.x.subs = subs
		return
	}
	st.set(flagSubs, subs != 0)
	if subs == 0 {
		delete(e.live.subs, event)
		return
	}
	if e.live.subs == nil {
		e.live.subs = map[int]uint16{}
	}
	e.live.subs[event] = subs
}
