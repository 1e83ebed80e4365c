package report

import (
	"encoding/binary"
	"math"
)

// keptObjects holds the objects the reorder count keeps, each with the
// first arrivals of its events, flat: a record per object in one slice,
// its first arrival inline and any further ones in a second slice, linked
// by index; the names in one byte arena; and an open-addressing table of
// record indexes by the object's hash. No record holds a pointer, so the
// garbage collector does not walk them. A long run against an outage keeps
// nearly every object of the run at once (their events retry for the
// whole run): a map of hash to a record with a cloned name and a slice of
// arrivals took about 130 bytes an object, over half the live heap at the
// peak of ten million events; this takes about 55.
//
// The records and further arrivals of an object that goes are reused by
// the next ones, and the arena is compacted once over half of it is names
// of objects gone, so the memory follows the objects kept at once, not
// those of the run.
type keptObjects struct {
	// table holds index+1 of a record in objs (0: empty), at the slot of
	// its hash or after it (linear probing); its length is a power of two.
	table []uint32
	n     int // objects kept
	objs  []keptObject
	// more holds the arrivals after an object's first.
	more []moreArrival
	// freeObj and freeMore are index+1 of the first free record of objs
	// and more (0: none), chained by their more and next.
	freeObj, freeMore uint32
	// names holds the kept objects' names, and deadNames counts the bytes
	// of those that went, until names is compacted.
	names     []byte
	deadNames int
	// bigSeqs holds the sequence numbers that do not fit in a record.
	bigSeqs map[seqRef]int
}

// keptObject is one kept object, 24 bytes: its first arrival, hash, name
// (at names[name:], after its length as a uvarint) and further arrivals.
type keptObject struct {
	at   int64
	seq  int32 // bigSeq: in bigSeqs
	hash uint32
	name uint32
	more uint32 // index+1 in more of its next arrival (0: none); of a free record, the next free one
}

// moreArrival is an arrival after an object's first, 16 bytes; next is
// index+1 of the one after it (0: none), or of the next free record.
type moreArrival struct {
	at   int64
	seq  int32 // bigSeq: in bigSeqs
	next uint32
}

// bigSeq stands for a sequence number that does not fit in an int32 (a
// corrupt stream's, or a run of more than two billion events), kept in
// keptObjects.bigSeqs instead.
const bigSeq = math.MinInt32

// seqRef names where a bigSeq's number is kept: the record of objs or
// more at index i.
type seqRef struct {
	more bool
	i    uint32
}

// hashOf is the hash of the object a table entry (a record's index+1)
// names.
func (k *keptObjects) hashOf(s uint32) uint32 { return k.objs[s-1].hash }

// name returns the name of the object at index i, as bytes in names,
// and the bytes it takes there with its length.
func (k *keptObjects) name(i uint32) (name []byte, size int) {
	n, w := binary.Uvarint(k.names[k.objs[i].name:])
	start := int(k.objs[i].name) + w
	return k.names[start : start+int(n)], w + int(n)
}

// seq32 returns seq as a record keeps it, keeping it in bigSeqs, for the
// record ref, if it does not fit.
func (k *keptObjects) seq32(seq int, ref seqRef) int32 {
	if s := int32(seq); int(s) == seq && s != bigSeq {
		return s
	}
	if k.bigSeqs == nil {
		k.bigSeqs = map[seqRef]int{}
	}
	k.bigSeqs[ref] = seq
	return bigSeq
}

// seq returns the sequence number a record keeps as s.
func (k *keptObjects) seq(s int32, ref seqRef) int {
	if s == bigSeq {
		return k.bigSeqs[ref]
	}
	return int(s)
}

// arrive notes the first arrival fa of an event about object, of hash h,
// and returns how many pairs it makes with those kept of object: the
// arrivals of events newer than its own that came before it, or older
// that came after it.
func (k *keptObjects) arrive(h uint32, object string, fa firstArrival) int {
	if len(k.table) == 0 {
		k.table = make([]uint32, 64)
	}
	i, idx, ok := k.find(h, object)
	if ok {
		return k.pair(idx, fa)
	}
	k.table[i] = k.newObject(h, object, fa) + 1
	if k.n++; 4*k.n > 3*len(k.table) {
		k.table = probeGrow(k.table, k.hashOf)
	}
	return 0
}

// find returns the index of object's record, of hash h, and whether it is
// kept; if not, the empty table slot where it would go.
func (k *keptObjects) find(h uint32, object string) (slot int, idx uint32, ok bool) {
	if len(k.table) == 0 {
		return 0, 0, false
	}
	mask := len(k.table) - 1
	i := probeHome(h, mask)
	for ; k.table[i] != 0; i = (i + 1) & mask {
		idx := k.table[i] - 1
		if name, _ := k.name(idx); k.objs[idx].hash == h && string(name) == object {
			return i, idx, true
		}
	}
	return i, 0, false
}

// pair counts the pairs fa makes with the arrivals kept of the object at
// index idx, and keeps fa with them.
func (k *keptObjects) pair(idx uint32, fa firstArrival) int {
	pairs := 0
	out := func(a firstArrival) bool {
		return (a.seq < fa.seq && fa.at < a.at) || (fa.seq < a.seq && a.at < fa.at)
	}
	o := &k.objs[idx]
	if out(firstArrival{seq: k.seq(o.seq, seqRef{false, idx}), at: o.at}) {
		pairs++
	}
	for m := o.more; m != 0; m = k.more[m-1].next {
		a := &k.more[m-1]
		if out(firstArrival{seq: k.seq(a.seq, seqRef{true, m - 1}), at: a.at}) {
			pairs++
		}
	}
	var m uint32
	if k.freeMore != 0 {
		m = k.freeMore
		k.freeMore = k.more[m-1].next
	} else {
		k.more = append(k.more, moreArrival{})
		m = uint32(len(k.more))
	}
	k.more[m-1] = moreArrival{at: fa.at, seq: k.seq32(fa.seq, seqRef{true, m - 1}), next: o.more}
	o.more = m
	return pairs
}

// newObject keeps object, of hash h, with its first arrival fa, and
// returns its record's index. The name is copied into names: the
// record's string may hold more.
func (k *keptObjects) newObject(h uint32, object string, fa firstArrival) uint32 {
	var idx uint32
	if k.freeObj != 0 {
		idx = k.freeObj - 1
		k.freeObj = k.objs[idx].more
	} else {
		k.objs = append(k.objs, keptObject{})
		idx = uint32(len(k.objs) - 1)
	}
	k.objs[idx] = keptObject{at: fa.at, seq: k.seq32(fa.seq, seqRef{false, idx}), hash: h, name: uint32(len(k.names))}
	k.names = binary.AppendUvarint(k.names, uint64(len(object)))
	k.names = append(k.names, object...)
	return idx
}

// remove lets go every object of hash h, with its arrivals.
func (k *keptObjects) remove(h uint32) {
	if k.n == 0 {
		return
	}
	mask := len(k.table) - 1
	for i := probeHome(h, mask); k.table[i] != 0; {
		idx := k.table[i] - 1
		if k.objs[idx].hash != h {
			i = (i + 1) & mask
			continue
		}
		k.free(idx)
		k.n--
		probeEmpty(k.table, i, k.hashOf) // moves a later entry to i, if any may be there: look again
	}
	if k.deadNames > 1<<16 && 2*k.deadNames > len(k.names) {
		k.compact()
	}
}

// free returns the record at idx, and its further arrivals, for reuse.
func (k *keptObjects) free(idx uint32) {
	o := &k.objs[idx]
	for m := o.more; m != 0; {
		a := &k.more[m-1]
		if a.seq == bigSeq {
			delete(k.bigSeqs, seqRef{true, m - 1})
		}
		next := a.next
		*a = moreArrival{next: k.freeMore}
		k.freeMore = m
		m = next
	}
	if o.seq == bigSeq {
		delete(k.bigSeqs, seqRef{false, idx})
	}
	_, size := k.name(idx)
	k.deadNames += size
	*o = keptObject{more: k.freeObj}
	k.freeObj = idx + 1
}

// compact copies the kept objects' names to a new arena, leaving out
// those of the objects that went.
func (k *keptObjects) compact() {
	names := make([]byte, 0, len(k.names)-k.deadNames)
	for _, s := range k.table {
		if s == 0 {
			continue
		}
		_, size := k.name(s - 1)
		o := &k.objs[s-1]
		off := uint32(len(names))
		names = append(names, k.names[o.name:int(o.name)+size]...)
		o.name = off
	}
	k.names, k.deadNames = names, 0
}
