package report

import (
	"hash/maphash"
	"strings"
)

// reorders counts the pairs of events about one object that first reached
// the handler in the opposite order to their creation (sequence order),
// keeping only what a later first arrival could still pair with, so that
// its memory follows the events in flight, not the events of the run.
//
// Records come in virtual-time order, so a first arrival pairs with the
// earlier first arrivals of newer events about its object. Events start in
// sequence order: an event not yet seen is newer than every event seen, so
// its first arrival, later than theirs, pairs with none of them. What is
// kept of an object can therefore go as soon as none of its events seen so
// far is still to arrive or end. (Keeping instead every arrival until all
// older events of the run had arrived or ended held, behind one event
// retried for hours, every event that arrived meanwhile: a hundred MB in a
// run of ten million events; and in one shard's stream, whose other
// shards' events never arrive, every event of the stream.)
type reorders struct {
	pairs int
	// objects are the objects that have an event still to arrive or end,
	// with the first arrivals of their events, by a hash of the object
	// (objects whose hashes collide are chained by next). Every event's
	// first attempt looks its object up, among as many objects as events
	// in flight: keyed by the object's text, the lookup read the key's
	// text besides the entry (a cache miss more, and a second when the
	// map grew and hashed every key again), a tenth of run --dry-run
	// against a black hole.
	objects map[uint64]*arrivals
	seed    maphash.Seed
	// open are the events seen, about an object, that have not ended:
	// their object and whether they have arrived.
	open seqTable[openEvent]
}

// arrivals are the first arrivals kept for one object, and how many of
// its events seen are still to arrive or end.
type arrivals struct {
	object  string
	list    []firstArrival
	pending int
	hash    uint64
	next    *arrivals // another object with the same hash
}

// openEvent is an event in flight about an object; the zero value is
// an event not in flight.
type openEvent struct {
	object  *arrivals
	arrived bool
}

func newReorders() reorders {
	return reorders{objects: map[uint64]*arrivals{}, seed: maphash.MakeSeed(), open: newSeqTable[openEvent]()}
}

// object returns what is kept of object, nil if nothing.
func (o *reorders) object(object string) *arrivals {
	a := o.objects[maphash.String(o.seed, object)]
	for a != nil && a.object != object {
		a = a.next
	}
	return a
}

// seen notes an attempt of event seq, about object.
func (o *reorders) seen(seq int, object string) {
	if object == "" {
		return // pairs with nothing
	}
	if o.open.get(seq).object != nil { // seen before
		return
	}
	o.seenAs(seq, object, maphash.String(o.seed, object))
}

// seenAs notes the first attempt seen of event seq, about object, whose
// hash is h.
func (o *reorders) seenAs(seq int, object string, h uint64) {
	first := o.objects[h]
	a := first
	for a != nil && a.object != object {
		a = a.next
	}
	if a == nil {
		a = &arrivals{object: strings.Clone(object), hash: h, next: first} // not the record's string, which may hold more
		o.objects[h] = a
	}
	a.pending++
	o.open.put(seq, openEvent{object: a})
}

// arrive notes the first arrival of event seq, about object, at at.
func (o *reorders) arrive(seq int, object string, at int64) {
	if object == "" {
		return
	}
	o.seen(seq, object)
	e := o.open.get(seq)
	if e.arrived {
		return
	}
	a := e.object
	fa := firstArrival{seq: seq, at: at}
	for _, k := range a.list {
		if (k.seq < fa.seq && fa.at < k.at) || (fa.seq < k.seq && k.at < fa.at) {
			o.pairs++
		}
	}
	a.list = append(a.list, fa)
	o.open.put(seq, openEvent{object: a, arrived: true})
	o.settled(a)
}

// resolve notes that event seq has ended: it can no longer first arrive.
func (o *reorders) resolve(seq int) {
	e := o.open.get(seq)
	if e.object == nil {
		return
	}
	o.open.delete(seq)
	if !e.arrived {
		o.settled(e.object)
	}
}

// settled notes that one of a's events arrived or ended; once none is
// still to, nothing to come can pair with its arrivals.
func (o *reorders) settled(a *arrivals) {
	if a.pending--; a.pending != 0 {
		return
	}
	p := o.objects[a.hash]
	switch {
	case p == a && a.next == nil:
		delete(o.objects, a.hash)
	case p == a:
		o.objects[a.hash] = a.next
	default:
		for p.next != a {
			p = p.next
		}
		p.next = a.next
	}
}
