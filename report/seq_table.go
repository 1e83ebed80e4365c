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
type seqTable[T comparable] struct {
	pages map[int]*seqPage[T] // by sequence number / seqPageSize, rounded down
	// last is the page of the last lookup, and lastKey its key; last is
	// nil when there is no such page, which is remembered too: a run
	// whose events never reach the handler looks up a page that is not
	// there for every attempt. Every change to pages is at lastKey, and
	// keeps last in step (put and delete).
	last    *seqPage[T]
	lastKey int
	n       int // values held
}

// seqPageSize is how many consecutive sequence numbers share a page. In
// a long run against a flaky network, whose events in flight are a few in
// a hundred spread over the whole run, 64 kept a page for nearly every 64
// events and raised the peak memory of 10 M events by a fifth; 16 by an
// eighth, for the same speed (8 saved no more).
const seqPageSize = 16

type seqPage[T comparable] struct {
	values [seqPageSize]T
	n      int // values held on the page
}

func newSeqTable[T comparable]() seqTable[T] {
	return seqTable[T]{pages: map[int]*seqPage[T]{}}
}

// page returns the page of seq, nil if none, and seq's place on it.
func (t *seqTable[T]) page(seq int) (*seqPage[T], int) {
	key, i := seq/seqPageSize, seq%seqPageSize
	if i < 0 { // below zero, as a corrupt stream may hold
		key, i = key-1, i+seqPageSize
	}
	if key != t.lastKey {
		t.last, t.lastKey = t.pages[key], key
	}
	return t.last, i
}

// get returns seq's value, the zero T if none.
func (t *seqTable[T]) get(seq int) T {
	if p, i := t.page(seq); p != nil {
		return p.values[i]
	}
	var zero T
	return zero
}

// put sets seq's value to v, which is not the zero T.
func (t *seqTable[T]) put(seq int, v T) {
	p, i := t.page(seq)
	if p == nil {
		p = &seqPage[T]{}
		t.pages[t.lastKey] = p
		t.last = p
	}
	var zero T
	if p.values[i] == zero {
		p.n++
		t.n++
	}
	p.values[i] = v
}

// delete removes seq's value, if any.
func (t *seqTable[T]) delete(seq int) {
	p, i := t.page(seq)
	var zero T
	if p == nil || p.values[i] == zero {
		return
	}
	p.values[i] = zero
	t.n--
	if p.n--; p.n == 0 {
		delete(t.pages, t.lastKey)
		t.last = nil
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
