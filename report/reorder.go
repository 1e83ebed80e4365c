package report

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
//
// An object is kept only once one of its events has arrived: before that
// it has nothing to pair with. Which objects may still have an event to
// arrive is counted by their 30-bit hash, not by name, so two objects
// whose hashes are equal (a few in a million) are kept until the last of
// them may go. Sharing a hash only keeps an object longer; it never counts
// a pair the names do not make. Those counts are begun only at the run's
// first arrival, from the events then in open: before it no object is
// kept, so there is nothing for them to let go. Against a black hole,
// where every event of a long run is in flight and none arrives, that
// leaves four bytes for each event (its object's hash, in open) and no
// count at all: counting each object in flight, in a table as large as
// the events in flight, had two cache misses an event and a twentieth of
// the command line's CPU.
type reorders struct {
	pairs int
	// open are the events seen, about an object, that have not ended:
	// their object's hash and whether they have arrived (an openEvent).
	open seqTable[openEvent]
	// waiting counts the events in open that have not arrived, by their
	// object's hash, once counting: from the first arrival on.
	waiting  hashCounts
	counting bool
	// objects are the objects with a first arrival kept, and those
	// arrivals.
	objects keptObjects
}

// openEvent is an event in flight about an object: its object's hash
// (above two bits), seen (bit 1, so that it is never zero) and whether it
// has arrived (bit 0); 0 is an event not in flight.
type openEvent uint32

const (
	openArrived openEvent = 1
	openSeen    openEvent = 2
)

func (e openEvent) hash() uint32 { return uint32(e >> 2) }

func newReorders() reorders {
	return reorders{open: newSeqTable[openEvent]()}
}

// objectHash is object's 30-bit FNV-1a hash.
func objectHash(object string) uint32 {
	h := uint32(2166136261)
	for i := 0; i < len(object); i++ {
		h ^= uint32(object[i])
		h *= 16777619
	}
	return h >> 2
}

// seen notes an attempt of event seq, about object; lane is its attempt
// number (see seqTable).
func (o *reorders) seen(lane, seq int, object string) {
	if object == "" {
		return // pairs with nothing
	}
	if o.open.get(lane, seq) != 0 { // seen before
		return
	}
	h := objectHash(object)
	o.open.put(lane, seq, openEvent(h)<<2|openSeen)
	if o.counting {
		o.waiting.add(h, 1)
	}
}

// count begins waiting's counts, at the first arrival: every event in
// open has yet to arrive.
func (o *reorders) count() {
	o.counting = true
	for _, e := range o.open.all() {
		o.waiting.add(e.hash(), 1)
	}
}

// arrive notes the first arrival of event seq, about object, at at, in
// its attempt lane.
func (o *reorders) arrive(lane, seq int, object string, at int64) {
	if object == "" {
		return
	}
	o.seen(lane, seq, object)
	e := o.open.get(lane, seq)
	if e&openArrived != 0 {
		return
	}
	if !o.counting {
		o.count()
	}
	h := e.hash()
	o.pairs += o.objects.arrive(h, object, firstArrival{seq: seq, at: at})
	o.open.put(lane, seq, e|openArrived)
	o.doneWith(h)
}

// resolve notes that event seq has ended: it can no longer first arrive;
// lane is its last attempt's number.
func (o *reorders) resolve(lane, seq int) {
	e := o.open.get(lane, seq)
	if e == 0 {
		return
	}
	o.open.delete(lane, seq)
	if e&openArrived == 0 {
		o.doneWith(e.hash())
	}
}

// doneWith notes that an event about an object of hash h arrived or
// ended; once none of them is still to, nothing to come can pair with
// their arrivals.
func (o *reorders) doneWith(h uint32) {
	if o.counting && o.waiting.add(h, -1) == 0 {
		o.objects.remove(h)
	}
}

// kept counts the objects whose arrivals are kept.
func (o *reorders) kept() int { return o.objects.n }
