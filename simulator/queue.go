package simulator

import (
	"time"
	"unsafe"
)

// nBits is how many low bits of due.key hold the attempt number; the cap on
// a schedule's attempts (policies.MaxAttemptsCap, 1000) fits with room to
// spare, and the event index takes the bits above (MaxEvents fits too).
const nBits = 20

// due is one attempt waiting for its virtual time. It is two words, like
// the (time, sequence) item of a bare heap: the time as nanoseconds since
// the run's start, and the event and attempt packed into one key whose
// order is (event, attempt).
type due struct {
	at  int64  // virtual time, nanoseconds since the run's start
	key uint64 // event<<nBits | attempt
}

func newDue(at time.Duration, event, n int) due {
	return due{at: int64(at), key: uint64(event)<<nBits | uint64(n)}
}

// event is the event's index in the workload.
func (d *due) event() int { return int(d.key >> nBits) }

// n is the attempt number, from 1.
func (d *due) n() int { return int(d.key & (1<<nBits - 1)) }

// offset is the attempt's virtual time since the run's start.
func (d *due) offset() time.Duration { return time.Duration(d.at) }

// before orders attempts by (time, event, attempt): a total order that does
// not depend on when an attempt was scheduled, so runs are the same at any
// concurrency.
func (a *due) before(b *due) bool {
	return a.at < b.at || (a.at == b.at && a.key < b.key)
}

// queue holds the attempts waiting for their time and hands them out in
// (time, event, attempt) order.
//
// Retries follow the schedule: attempt n+1 of an event is due Delay(n)
// after attempt n, the same wait for every event, and attempts are taken
// in order, so attempts numbered n are queued in order too. The queue keeps
// one FIFO lane per attempt number and merges the lanes' heads with a heap
// as small as the schedule; an attempt that would break its lane's order (a
// Retry-After lengthened its wait) goes to a general heap instead. A pop
// then costs O(log attempts per event) on memory read in order, not
// O(log pending) scattered reads: with a million attempts pending, that is
// most of a model run's time. Lanes are lists of fixed-size chunks from a
// shared pool, so the queue's memory is the attempts pending, never copied;
// and as a lane is read only at its head and written only at its tail, the
// full chunks between the two go to a temporary file (chunkFile) once more
// than memChunks of them are in memory: ten million events against a black
// hole, all in flight for days, then cost the queue 8 MB of memory instead
// of 160 (and 500 more for their names, see eventNames).
type queue struct {
	lanes []lane  // by attempt number
	heads []int32 // the non-empty lanes, a min-heap ordered by their heads
	spill heap    // attempts that came out of their lane's order
	n     int
	free  *chunk // chunks no lane uses, linked by next
	// file holds the chunks spilled; inMemory counts the chunks between
	// lanes' heads and tails that are in memory, and memChunks is how many
	// may be before they are spilled (0: defaultMemChunks).
	file      chunkFile
	inMemory  int
	memChunks int
	// err is why the queue could not read back what it spilled; the
	// queue is then empty, and takes nothing more.
	err error
	// carry says each attempt carries its event's names (pushNames), and
	// popped holds those of the attempt popped last; out are those of the
	// attempts in spill, by key.
	carry  bool
	popped eventNames
	out    map[uint64]eventNames
	// popTo, if not nil, is where pop puts the names instead of popped
	// (the engine's current names, saving a copy an attempt).
	popTo *eventNames
}

// eventNames is an event's dedup id followed by its object, and its first
// attempt's time, as a dry run's queue carries them from one attempt of
// the event to the next: making them again from the seed costs more than
// the rest of an attempt, and keeping them in memory for every event in
// flight, 52 bytes each, was most of a long run's memory. n is 0 when they
// are not carried (too long, or the attempt was queued without them).
type eventNames struct {
	b        [62]byte
	n, split uint8
	first    time.Duration
}

// set makes nm hold id and object, if they fit.
func (nm *eventNames) set(id, object string) {
	if len(id)+len(object) > len(nm.b) {
		nm.n = 0
		return
	}
	copy(nm.b[copy(nm.b[:], id):], object)
	nm.n, nm.split = uint8(len(id)+len(object)), uint8(len(id))
}

// names returns the id and the object, copied into blk; ok is false when
// nm holds none.
func (nm *eventNames) names(blk *nameBlock) (id, object string, ok bool) {
	if nm.n == 0 {
		return "", "", false
	}
	s := blk.string(nm.b[:nm.n])
	return s[:nm.split], s[nm.split:], true
}

// nameBlockSize is the size of the blocks a nameBlock copies names into:
// about twenty attempts' names a block.
const nameBlockSize = 1024

// nameBlock makes strings by copying bytes into blocks of nameBlockSize
// that it fills one after the other and never writes again: a dry run
// makes an attempt's names as a string for its record, and one allocation
// for each was a fifth of a model run's time. A string stays valid (and
// immutable) for as long as anything keeps it, like any other; one kept
// alone keeps its block, a kilobyte, alive with it, so what keeps a name
// for long (the report's samples and exemplars, a few hundred) either
// clones it or keeps few.
type nameBlock struct {
	b []byte
}

// string returns p as a string.
func (nb *nameBlock) string(p []byte) string {
	if len(p) == 0 {
		return ""
	}
	if len(p) > cap(nb.b)-len(nb.b) {
		if len(p) > nameBlockSize/8 {
			return string(p)
		}
		nb.b = make([]byte, 0, nameBlockSize)
	}
	i := len(nb.b)
	nb.b = append(nb.b, p...)
	return unsafe.String(&nb.b[i], len(p))
}

// defaultMemChunks is how many full chunks the lanes keep in memory
// between their heads and tails (8 MiB of attempts, or of attempts with
// their names) before they spill the rest to a temporary file: a run of up
// to half a million attempts pending (a fifth of that with names) never
// makes one.
const defaultMemChunks = 512

// chunkLen is the number of attempts in a chunk (16 KiB).
const chunkLen = 1024

type chunk struct {
	items [chunkLen]due
	names *[chunkLen]eventNames // with carry
	next  *chunk
}

// lane is a FIFO of attempts with the same number, in order: items
// head.items[first:], the full chunks of mid, then tail.items[:end] (head
// and tail may be one chunk); last is the attempt pushed last.
type lane struct {
	head, tail *chunk
	first, end int
	mid        []segment
	last       due
}

// segment is a full chunk between a lane's head and tail: in memory (c),
// or in slot of the queue's file.
type segment struct {
	c    *chunk
	slot int32
}

func (l *lane) empty() bool { return l.head == nil }
func (l *lane) front() *due { return &l.head.items[l.first] }
func (q *queue) Len() int   { return q.n }

// peek returns the next attempt; the queue must not be empty.
func (q *queue) peek() *due {
	if len(q.heads) == 0 {
		return q.spill.peek()
	}
	d := q.lanes[q.heads[0]].front()
	if q.spill.Len() > 0 && q.spill.peek().before(d) {
		return q.spill.peek()
	}
	return d
}

func (q *queue) push(d due) { q.pushNames(d, nil) }

// pushNames is push, the attempt carrying its event's names nm (nil:
// none) when the queue carries them.
func (q *queue) pushNames(d due, nm *eventNames) {
	if q.err != nil {
		return
	}
	var none eventNames
	if nm == nil {
		nm = &none
	}
	q.n++
	n := d.n()
	for n >= len(q.lanes) {
		q.lanes = append(q.lanes, lane{})
	}
	l := &q.lanes[n]
	switch {
	case l.empty():
		c := q.newChunk()
		c.items[0] = d
		if q.carry {
			c.names[0] = *nm
		}
		l.head, l.tail, l.first, l.end = c, c, 0, 1
		l.last = d
		q.pushHead(int32(n))
		return
	case d.before(&l.last):
		q.spill.push(d)
		if q.carry && nm.n != 0 {
			if q.out == nil {
				q.out = map[uint64]eventNames{}
			}
			q.out[d.key] = *nm
		}
		return
	case l.end == chunkLen:
		if l.tail == l.head {
			l.tail = q.newChunk()
		} else {
			l.tail = q.toMiddle(l, l.tail)
		}
		l.end = 0
	}
	l.tail.items[l.end] = d
	if q.carry {
		l.tail.names[l.end] = *nm
	}
	l.end++
	l.last = d
}

// toMiddle puts the full chunk c at the end of l's middle, on disk when
// more than memChunks are in memory, and returns a chunk to write on.
func (q *queue) toMiddle(l *lane, c *chunk) *chunk {
	limit := q.memChunks
	if limit == 0 {
		limit = defaultMemChunks
		if q.carry {
			limit = int(defaultMemChunks * chunkBytes / (chunkBytes + namesBytes))
		}
	}
	if q.inMemory >= limit {
		if slot, err := q.file.write(c); err == nil {
			l.mid = append(l.mid, segment{slot: slot})
			return c
		}
		// A full disk: the chunk stays in memory, as it would have.
	}
	l.mid = append(l.mid, segment{c: c})
	q.inMemory++
	return q.newChunk()
}

// poppedTo is where pop puts the names of the attempt it takes.
func (q *queue) poppedTo() *eventNames {
	if q.popTo != nil {
		return q.popTo
	}
	return &q.popped
}

// pop removes and returns the next attempt; the queue must not be empty.
func (q *queue) pop() due {
	q.n--
	if len(q.heads) == 0 || (q.spill.Len() > 0 && q.spill.peek().before(q.lanes[q.heads[0]].front())) {
		d := q.spill.pop()
		if q.carry {
			*q.poppedTo() = q.out[d.key]
			delete(q.out, d.key)
		}
		return d
	}
	l := &q.lanes[q.heads[0]]
	d := l.head.items[l.first]
	if q.carry {
		*q.poppedTo() = l.head.names[l.first]
	}
	l.first++
	switch {
	case l.head == l.tail && l.first == l.end:
		q.freeChunk(l.head)
		*l = lane{mid: l.mid[:0]}
		last := len(q.heads) - 1
		q.heads[0] = q.heads[last]
		q.heads = q.heads[:last]
	case l.first == chunkLen:
		c := l.head
		l.first = 0
		switch {
		case len(l.mid) == 0:
			l.head = l.tail
			q.freeChunk(c)
		case l.mid[0].c != nil:
			l.head = l.mid[0].c
			q.inMemory--
			q.freeChunk(c)
		default:
			if err := q.file.read(l.mid[0].slot, c); err != nil {
				q.fail(err)
				return d
			}
		}
		if len(l.mid) > 0 {
			l.mid = l.mid[1:]
		}
	}
	q.siftHead(0)
	return d
}

func (q *queue) newChunk() *chunk {
	c := q.free
	if c == nil {
		c = &chunk{}
		if q.carry {
			c.names = new([chunkLen]eventNames)
		}
		return c
	}
	q.free, c.next = c.next, nil
	return c
}

func (q *queue) freeChunk(c *chunk) {
	c.next = q.free
	q.free = c
}

// fail empties the queue for good, for err.
func (q *queue) fail(err error) {
	q.reset()
	q.err = err
}

// reset empties the queue.
func (q *queue) reset() {
	for i := range q.lanes {
		l := &q.lanes[i]
		if l.head != nil {
			q.freeChunk(l.head)
		}
		if l.tail != nil && l.tail != l.head {
			q.freeChunk(l.tail)
		}
		for _, s := range l.mid {
			if s.c != nil {
				q.freeChunk(s.c)
			} else {
				q.file.release(s.slot)
			}
		}
		*l = lane{mid: l.mid[:0]}
	}
	q.inMemory = 0
	clear(q.out)
	q.heads = q.heads[:0]
	q.spill.items = q.spill.items[:0]
	q.n = 0
}

// close removes the queue's temporary file, if it made one.
func (q *queue) close() error { return q.file.close() }

func (q *queue) headBefore(i, j int) bool {
	return q.lanes[q.heads[i]].front().before(q.lanes[q.heads[j]].front())
}

func (q *queue) pushHead(n int32) {
	q.heads = append(q.heads, n)
	for i := len(q.heads) - 1; i > 0; {
		p := (i - 1) / 2
		if !q.headBefore(i, p) {
			break
		}
		q.heads[i], q.heads[p] = q.heads[p], q.heads[i]
		i = p
	}
}

func (q *queue) siftHead(i int) {
	h := q.heads
	for {
		l := 2*i + 1
		if l >= len(h) {
			return
		}
		m := l
		if r := l + 1; r < len(h) && q.headBefore(r, l) {
			m = r
		}
		if !q.headBefore(m, i) {
			return
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
}

// heap is a min-heap of due attempts with four children per node (half the
// levels of a binary heap, and a node's children share a cache line),
// hand-written rather than container/heap to avoid boxing every push and
// pop in an interface.
type heap struct{ items []due }

func (h *heap) Len() int { return len(h.items) }

func (h *heap) peek() *due { return &h.items[0] }

func (h *heap) push(d due) {
	h.items = append(h.items, d)
	s := h.items
	i := len(s) - 1
	for i > 0 {
		p := (i - 1) / 4
		if !d.before(&s[p]) {
			break
		}
		s[i] = s[p]
		i = p
	}
	s[i] = d
}

func (h *heap) pop() due {
	s := h.items
	top := s[0]
	last := len(s) - 1
	d := s[last]
	s = s[:last]
	h.items = s
	if last == 0 {
		return top
	}
	i := 0
	for {
		c := 4*i + 1
		if c >= last {
			break
		}
		m := c
		for j := c + 1; j < min(c+4, last); j++ {
			if s[j].before(&s[m]) {
				m = j
			}
		}
		if !s[m].before(&d) {
			break
		}
		s[i] = s[m]
		i = m
	}
	s[i] = d
	return top
}
