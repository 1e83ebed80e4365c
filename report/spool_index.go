package report

import (
	"container/heap"
	"encoding/binary"
	"slices"
)

// closedIndex says where the spooled timeline of each event whose fate
// closed its chain ends, and yields them by Seq. A run that keeps every
// timeline has an entry for every event, so the entries are not kept as
// they are (16 bytes each: 160 MB for ten million events, and as much
// again while a growing slice is copied): they are gathered in blocks of
// closedBlock in the order the events closed, and each full block is
// sorted by Seq and delta-encoded, a few bytes an entry. Reading them
// by Seq merges the blocks, each read forward, one entry at a time.
type closedIndex struct {
	n      int
	cur    []spoolEntry // the block being filled, in the order of closing
	blocks []closedBlockData
}

// closedBlock is how many entries a block holds.
const closedBlock = 4096

// closedBlockData is one sealed block: its entries sorted by Seq (in the
// order they closed among equals), as varint deltas of (seq, last).
type closedBlockData struct {
	n int
	b []byte
}

// add indexes the event at e.seq, whose chain ends at e.last.
func (x *closedIndex) add(e spoolEntry) {
	if x.cur == nil {
		x.cur = make([]spoolEntry, 0, closedBlock)
	}
	x.cur = append(x.cur, e)
	x.n++
	if len(x.cur) == closedBlock {
		x.seal()
	}
}

// len is how many events are indexed.
func (x *closedIndex) len() int { return x.n }

// seal encodes the block being filled.
func (x *closedIndex) seal() {
	if len(x.cur) == 0 {
		return
	}
	slices.SortStableFunc(x.cur, entryBySeq)
	b := make([]byte, 0, 4*len(x.cur))
	var prev spoolEntry
	for _, e := range x.cur {
		b = binary.AppendVarint(b, int64(e.seq-prev.seq))
		b = binary.AppendVarint(b, e.last-prev.last)
		prev = e
	}
	x.blocks = append(x.blocks, closedBlockData{n: len(x.cur), b: slices.Clip(b)})
	x.cur = x.cur[:0]
}

// sorted returns a reader of the entries by Seq; those that share a Seq
// (only a hand-made stream has them) come in the order they closed. The
// index may be added to after the reader is done, not while it is read.
func (x *closedIndex) sorted() *closedReader {
	x.seal()
	rd := &closedReader{}
	for i, bl := range x.blocks {
		c := &blockCursor{b: bl.b, left: bl.n, block: i}
		if c.advance() {
			rd.h = append(rd.h, c)
		}
	}
	heap.Init(&rd.h)
	return rd
}

// closedReader merges the sorted blocks.
type closedReader struct{ h cursorHeap }

// next returns the next entry by Seq, false after the last.
func (rd *closedReader) next() (spoolEntry, bool) {
	if len(rd.h) == 0 {
		return spoolEntry{}, false
	}
	c := rd.h[0]
	e := c.e
	if c.advance() {
		heap.Fix(&rd.h, 0)
	} else {
		heap.Pop(&rd.h)
	}
	return e, true
}

// blockCursor reads one block forward.
type blockCursor struct {
	b     []byte
	left  int
	e     spoolEntry // the entry read last
	block int        // the block's place in the order of closing
}

func (c *blockCursor) advance() bool {
	if c.left == 0 {
		return false
	}
	ds, n := binary.Varint(c.b)
	dl, m := binary.Varint(c.b[n:])
	c.b = c.b[n+m:]
	c.e.seq += int(ds)
	c.e.last += dl
	c.left--
	return true
}

// cursorHeap orders the cursors by their entry's Seq, then by block: an
// earlier block's entries closed first.
type cursorHeap []*blockCursor

func (h cursorHeap) Len() int { return len(h) }
func (h cursorHeap) Less(i, j int) bool {
	if h[i].e.seq != h[j].e.seq {
		return h[i].e.seq < h[j].e.seq
	}
	return h[i].block < h[j].block
}
func (h cursorHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *cursorHeap) Push(x any)   { *h = append(*h, x.(*blockCursor)) }
func (h *cursorHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
