package report

import (
	"strings"

	"github.com/retrysim/retrysim/simulator"
)

// reorders counts the pairs of events about one object that first reached
// the handler in the opposite order to their creation (sequence order),
// keeping only what a later first arrival could still pair with, so that
// its memory follows the events in flight, not the events of the run.
//
// Records come in virtual-time order, so a first arrival pairs with the
// earlier first arrivals of newer events about its object. Events start in
// sequence order: an event never seen is newer than every event seen. Once
// every event up to s has arrived or ended, no first arrival still to come
// is older than s, and what is kept of s can go.
type reorders struct {
	pairs   int
	objects map[string]*arrivals // by object; the pointer, so the key is never rewritten
	low     int                  // every event below low has arrived or ended
	// open[i-head] says whether event low+i is still to arrive or end, and
	// at[i-head] holds the object of an event that arrived.
	open []bool
	at   []*arrivals
	head int
}

// arrivals are the first arrivals kept for one object.
type arrivals struct {
	object string
	list   []firstArrival
}

func newReorders() reorders { return reorders{objects: map[string]*arrivals{}} }

// seen notes an attempt of event seq and reports whether seq is followed:
// not below low, and not so far above it (a stream no run wrote) that
// following it would take more room than a run's events.
func (o *reorders) seen(seq int) bool {
	if seq < o.low || seq-o.low >= simulator.MaxEvents {
		return false
	}
	for seq >= o.low+len(o.open)-o.head {
		o.open = append(o.open, true)
		o.at = append(o.at, nil)
	}
	return true
}

// arrive notes the first arrival of event seq, about object, at at.
func (o *reorders) arrive(seq int, object string, at int64) {
	followed := o.seen(seq)
	fa := firstArrival{seq: seq, at: at}
	if object != "" {
		a := o.objects[object]
		if a == nil {
			a = &arrivals{object: strings.Clone(object)} // not the record's string, which may hold more
			o.objects[a.object] = a
		}
		for _, e := range a.list {
			if (e.seq < fa.seq && fa.at < e.at) || (fa.seq < e.seq && e.at < fa.at) {
				o.pairs++
			}
		}
		a.list = append(a.list, fa)
		if followed {
			o.at[o.head+seq-o.low] = a
		}
	}
	if followed {
		o.resolve(seq)
	}
}

// resolve notes that event seq can no longer first arrive: it arrived, or
// it ended.
func (o *reorders) resolve(seq int) {
	if !o.seen(seq) {
		return
	}
	o.open[o.head+seq-o.low] = false
	for o.head < len(o.open) && !o.open[o.head] {
		if a := o.at[o.head]; a != nil {
			a.drop(o.low)
			if len(a.list) == 0 {
				delete(o.objects, a.object)
			}
			o.at[o.head] = nil
		}
		o.head++
		o.low++
	}
	if o.head > 1024 && o.head > len(o.open)/2 {
		o.open = append(o.open[:0], o.open[o.head:]...)
		o.at = append(o.at[:0], o.at[o.head:]...)
		o.head = 0
	}
}

// drop forgets the arrival of event seq.
func (a *arrivals) drop(seq int) {
	for i, e := range a.list {
		if e.seq == seq {
			a.list = append(a.list[:i], a.list[i+1:]...)
			return
		}
	}
}
