package report

import "iter"

// seqTable holds a value for each event in flight, by sequence number, in
// pages of consecutive numbers; the zero T is "none". Every attempt looks
// its event up, and attempts come mostly in sequence order (every event
// follows one schedule), so one page serves many in a row: a map with an
// entry per event, a million in a long run against a black hole, cost a
// cache miss per attempt and half the CPU of run --dry-run. A page goes
// when its last value does, so the memory still follows the events in
// flight, at worst a page for each.
//
// Each lookup names a lane, the attempt number of the record it is made
// for, and each lane remembers the page of its last lookup: the engine
// queues each attempt number in sequence order and the records of the
// lanes interleave, so one remembered page for all of them was a page
// lookup for nearly every record, a tenth of the command line's CPU. A
// lane that moves on to the next page finds it from the last one, which
// points to it: with a million events in flight, a page lookup in the map
// is a cache miss or two, which each lane would otherwise pay at each of
// its pages, where a page's neighbours are looked up only when it is made
// or goes.
type seqTable[T comparable] struct {
	pages map[int]*seqPage[T] // by sequence number / seqPageSize, rounded down
	// lanes hold each lane's last page and its key; a page that is not
	// there is remembered as nil, since a run whose events never reach
	// the handler looks up a page that is not there for every attempt.
	// Every lane is kept in step with pages: put and delete, which make
	// and remove pages, mend every lane that remembers the key they
	// change.
	lanes [seqLanes]seqLane[T]
	n     int // values held
}

// seqLanes is how many lanes a table remembers a page for; a lane past it
// shares with the one seqLanes below (providers retry up to 20 times or
// so, and a shared lane only looks a page up more often).
const seqLanes = 32

type seqLane[T comparable] struct {
	page *seqPage[T] // nil: no page at key
	key  int
}

// seqPageSize is how many consecutive sequence numbers share a page. In
// a long run against a flaky network, whose events in flight are a few in
// a hundred spread over the whole run, 64 kept a page for nearly every 64
// events and raised the peak memory of 10 M events by a fifth; 16 by an
// eighth, for the same speed (8 saved no more).
const seqPageSize = 16

type seqPage[T comparable] struct {
	values [seqPageSize]T
	n      int         // values held on the page
	next   *seqPage[T] // the page of the next key, nil if none
}

func newSeqTable[T comparable]() seqTable[T] {
	return seqTable[T]{pages: map[int]*seqPage[T]{}}
}

// page returns the page of seq, nil if none, seq's place on it, and the
// page's key, remembering the page in lane.
func (t *seqTable[T]) page(lane, seq int) (*seqPage[T], int, int) {
	key, i := seq/seqPageSize, seq%seqPageSize
	if i < 0 { // below zero, as a corrupt stream may hold
		key, i = key-1, i+seqPageSize
	}
	l := &t.lanes[uint(lane)%seqLanes]
	if key != l.key {
		if key == l.key+1 && l.page != nil {
			l.page = l.page.next
		} else {
			l.page = t.pages[key]
		}
		l.key = key
	}
	return l.page, i, key
}

// remember sets the page every lane remembers at key to p (nil: none).
func (t *seqTable[T]) remember(key int, p *seqPage[T]) {
	for i := range t.lanes {
		if t.lanes[i].key == key {
			t.lanes[i].page = p
		}
	}
}

// get returns seq's value, the zero T if none; lane is the attempt number
// the lookup is made for.
func (t *seqTable[T]) get(lane, seq int) T {
	if p, i, _ := t.page(lane, seq); p != nil {
		return p.values[i]
	}
	var zero T
	return zero
}

// put sets seq's value to v, which is not the zero T.
func (t *seqTable[T]) put(lane, seq int, v T) {
	p, i, key := t.page(lane, seq)
	if p == nil {
		p = &seqPage[T]{next: t.pages[key+1]}
		t.pages[key] = p
		if q := t.pages[key-1]; q != nil {
			q.next = p
		}
		t.remember(key, p)
	}
	var zero T
	if p.values[i] == zero {
		p.n++
		t.n++
	}
	p.values[i] = v
}

// delete removes seq's value, if any.
func (t *seqTable[T]) delete(lane, seq int) {
	p, i, key := t.page(lane, seq)
	var zero T
	if p == nil || p.values[i] == zero {
		return
	}
	p.values[i] = zero
	t.n--
	if p.n--; p.n == 0 {
		delete(t.pages, key)
		if q := t.pages[key-1]; q != nil {
			q.next = nil
		}
		t.remember(key, nil)
	}
}

// len returns how many values t holds.
func (t *seqTable[T]) len() int { return t.n }

// all yields every sequence number with a value, and the value, in no
// particular order.
func (t *seqTable[T]) all() iter.Seq2[int, T] {
	return func(yield func(int, T) bool) {
		var zero T
		for key, p := range t.pages {
			for i, v := range p.values {
				if v != zero && !yield(key*seqPageSize+i, v) {
					return
				}
			}
		}
	}
}
