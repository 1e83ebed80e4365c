package report

import (
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"slices"
)

// reorders counts the pairs of events about one object that first reached
// the handler in the opposite order to their creation (sequence order):
// the newer one strictly first.
//
// It notes each event's first arrival (its object's name, its sequence
// number and its time) and counts the pairs only when the run's facts are
// concluded. An arrival is noted in one of reorderParts parts, chosen by
// its object's hash, so that every arrival about one object is in one
// part; the part's buffer goes to a temporary file in blocks as it fills.
// The count reads one part at a time. Memory is therefore the parts'
// buffers, whatever the run: under an outage, an object's four events are
// spread over the whole run, and keeping in memory every object that may
// still pair (as this once did) held nearly every object of the run, over
// half the memory of ten million events. A run whose arrivals fit in the
// buffers writes no file.
type reorders struct {
	// dir is where the temporary file goes ("": os.TempDir); inMemory
	// keeps the blocks in memory (a stream that is in memory already),
	// as does closed (after close, so that no file is made again).
	dir              string
	inMemory, closed bool
	parts            [reorderParts][]byte
	// f holds the parts' full blocks, written at size, and blocks says
	// where each is; f is nil until a part first fills, and stays nil if
	// it cannot be made (the blocks then stay in memory, in kept).
	f      *os.File
	path   string // f's name, if it could not be removed at once
	size   int64
	blocks []reorderBlock
	kept   [][]byte
	// noted counts the arrivals noted; counted is how many of them pairs
	// counts (-1: none yet), so that concluding twice counts once.
	noted, counted int
	pairs          int
}

// reorderParts is how many parts the arrivals are split into, and
// reorderBlockSize the size a part's buffer reaches before it is written out:
// at most 4 MiB of buffers a run, and a part of ten million arrivals about
// 7 MB to count.
const (
	reorderParts     = 64
	reorderBlockSize = 64 << 10
)

// reorderBlock is a part's block in the file (or, at off -1-i, kept[i]).
type reorderBlock struct {
	part int
	off  int64
	n    int
}

func newReorders(dir string, inMemory bool) reorders {
	return reorders{dir: dir, inMemory: inMemory, counted: -1}
}

// objectHash is object's FNV-1a hash.
func objectHash(object string) uint32 {
	h := uint32(2166136261)
	for i := 0; i < len(object); i++ {
		h ^= uint32(object[i])
		h *= 16777619
	}
	return h
}

// arrive notes the first arrival of event seq, about object, at at.
func (o *reorders) arrive(seq int, object string, at int64) {
	if object == "" {
		return // pairs with nothing
	}
	p := int(objectHash(object) % reorderParts)
	b := o.parts[p]
	b = binary.AppendUvarint(b, uint64(len(object)))
	b = append(b, object...)
	b = binary.AppendUvarint(b, uint64(seq))
	b = binary.AppendVarint(b, at)
	o.noted++
	if len(b) < reorderBlockSize {
		o.parts[p] = b
		return
	}
	o.parts[p] = b[:0]
	o.spill(p, b)
}

// spill moves a part's full block b out of its buffer: to the file, or,
// when there is no file to be had, to kept.
func (o *reorders) spill(p int, b []byte) {
	if o.f == nil && o.kept == nil && !o.inMemory && !o.closed {
		if f, path, err := createTemp(o.dir, "retrysim-reorder-*.spool"); err == nil {
			o.f, o.path = f, path
		}
	}
	if o.f != nil {
		if _, err := o.f.WriteAt(b, o.size); err == nil {
			o.blocks = append(o.blocks, reorderBlock{part: p, off: o.size, n: len(b)})
			o.size += int64(len(b))
			return
		}
	}
	o.kept = append(o.kept, slices.Clone(b))
	o.blocks = append(o.blocks, reorderBlock{part: p, off: -int64(len(o.kept)), n: len(b)})
}

// count returns the pairs among the arrivals noted, counting them once.
func (o *reorders) count() (int, error) {
	if o.counted == o.noted {
		return o.pairs, nil
	}
	pairs := 0
	var buf []byte
	var arrivals []reorderArrival
	for p := range o.parts {
		buf = buf[:0]
		for _, bl := range o.blocks {
			if bl.part != p {
				continue
			}
			if bl.off < 0 {
				buf = append(buf, o.kept[-bl.off-1]...)
				continue
			}
			if o.f == nil {
				return 0, fmt.Errorf("report: the reorder count's arrivals: %w", ErrClosed)
			}
			buf = slices.Grow(buf, bl.n)
			if _, err := o.f.ReadAt(buf[len(buf):len(buf)+bl.n], bl.off); err != nil {
				return 0, fmt.Errorf("report: reading back the reorder count's arrivals: %w", err)
			}
			buf = buf[:len(buf)+bl.n]
		}
		buf = append(buf, o.parts[p]...)
		var err error
		if arrivals, err = decodeArrivals(arrivals[:0], buf); err != nil {
			return 0, err
		}
		pairs += countReordered(arrivals)
	}
	o.pairs, o.counted = pairs, o.noted
	return pairs, nil
}

// shed writes the parts' buffers to the file, if there is one, once the
// run has ended and been counted: what a finished run keeps in memory is
// then where its blocks are, not 4 MiB of buffers.
func (o *reorders) shed() {
	if o.f == nil {
		return
	}
	for p, b := range o.parts {
		if len(b) > 0 {
			o.spill(p, b)
		}
		o.parts[p] = nil
	}
}

// close lets go of the file; arrivals noted after it stay in memory.
func (o *reorders) close() {
	o.closed = true
	if o.f != nil {
		closeTemp(o.f, o.path)
		o.f = nil
	}
}

// reorderArrival is an event's first arrival about an object, decoded.
type reorderArrival struct {
	object string
	seq    int
	at     int64
}

var errReorderData = errors.New("report: the reorder count's arrivals do not decode")

func decodeArrivals(out []reorderArrival, b []byte) ([]reorderArrival, error) {
	for len(b) > 0 {
		n, w := binary.Uvarint(b)
		if w <= 0 || uint64(len(b)-w) < n {
			return nil, errReorderData
		}
		object := string(b[w : w+int(n)])
		b = b[w+int(n):]
		seq, w := binary.Uvarint(b)
		if w <= 0 {
			return nil, errReorderData
		}
		b = b[w:]
		at, w := binary.Varint(b)
		if w <= 0 {
			return nil, errReorderData
		}
		b = b[w:]
		out = append(out, reorderArrival{object: object, seq: int(seq), at: at})
	}
	return out, nil
}

// countReordered counts, among arrivals, the pairs about one object whose
// newer event (by sequence) arrived strictly first. It sorts arrivals.
func countReordered(arrivals []reorderArrival) int {
	slices.SortFunc(arrivals, func(a, b reorderArrival) int {
		// By time last: a corrupt stream's two first arrivals of one
		// event are in their order, not a pair.
		return cmp.Or(cmp.Compare(a.object, b.object), cmp.Compare(a.seq, b.seq), cmp.Compare(a.at, b.at))
	})
	pairs := 0
	var times, scratch []int64
	for i := 0; i < len(arrivals); {
		j := i + 1
		for j < len(arrivals) && arrivals[j].object == arrivals[i].object {
			j++
		}
		if j-i > 1 {
			times = times[:0]
			for _, a := range arrivals[i:j] {
				times = append(times, a.at)
			}
			scratch = slices.Grow(scratch[:0], len(times))[:len(times)]
			pairs += inversions(times, scratch)
		}
		i = j
	}
	return pairs
}

// inversions counts the pairs i < j of t with t[j] < t[i] (ties are not
// inversions), sorting t; scratch is as long as t.
func inversions(t, scratch []int64) int {
	if len(t) < 2 {
		return 0
	}
	mid := len(t) / 2
	n := inversions(t[:mid], scratch[:mid]) + inversions(t[mid:], scratch[mid:])
	l, r, k := 0, mid, 0
	for l < mid && r < len(t) {
		if t[r] < t[l] {
			n += mid - l // t[r] is below every t[l:mid]
			scratch[k] = t[r]
			r++
		} else {
			scratch[k] = t[l]
			l++
		}
		k++
	}
	k += copy(scratch[k:], t[l:mid])
	copy(scratch[k:], t[r:])
	copy(t, scratch)
	return n
}
