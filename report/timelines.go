package report

import (
	"cmp"
	"iter"
	"maps"
	"slices"

	"github.com/retrysim/retrysim/simulator"
)

// spoolEntry says where a finished event's timeline is in the spool.
type spoolEntry struct {
	seq int
	off int64
}

func bySeq(x, y *EventTimeline) int { return cmp.Compare(x.Seq, y.Seq) }

// hold starts keeping the timeline of the event rec is the first attempt of.
func (r *Run) hold(ev *eventAgg, rec *simulator.Record) {
	ev.timeline = &EventTimeline{ID: rec.Event, Seq: rec.Seq}
	if r.spool == nil {
		r.kept = append(r.kept, ev.timeline)
	}
	r.held++
	r.peakHeld = max(r.peakHeld, r.held)
}

// release lets go of a finished event's timeline: to the spool when there
// is one (it stays in memory, in kept, otherwise).
func (r *Run) release(ev *EventTimeline) error {
	if r.spool == nil {
		return nil
	}
	off, err := r.spool.put(ev)
	if err != nil {
		return err
	}
	if n := len(r.spooled); n > 0 && r.spooled[n-1].seq > ev.Seq {
		r.spooledSorted = false
	}
	r.spooled = append(r.spooled, spoolEntry{seq: ev.Seq, off: off})
	r.held--
	return nil
}

// TimelineCount is how many events' timelines the run kept (see
// WithTimeline): what Timelines yields.
func (r *Run) TimelineCount() int { return len(r.spooled) + r.held }

// Timelines yields the kept events' timelines in Seq order (events that
// share a Seq, which only a hand-made stream has, in the order they began).
// Spooled timelines are read back one at a time, so ranging over every
// event of a huge run holds one of them at once; a timeline that cannot be
// read back is yielded as an error, and ends the sequence.
func (r *Run) Timelines() iter.Seq2[*EventTimeline, error] { return r.timelines(nil) }

// timelines is Timelines without the timelines whose place in it want
// refuses (want nil takes all): those are not even read back.
func (r *Run) timelines(want func(i int) bool) iter.Seq2[*EventTimeline, error] {
	return func(yield func(*EventTimeline, error) bool) {
		mem := r.inMemory()
		idx := r.spoolIndex()
		i, j := 0, 0
		for k := 0; i < len(idx) || j < len(mem); k++ {
			// A spooled event ended before an in-memory one with its Seq
			// began, so it comes first.
			var ev *EventTimeline
			if j == len(mem) || (i < len(idx) && idx[i].seq <= mem[j].Seq) {
				off := idx[i].off
				i++
				if want != nil && !want(k) {
					continue
				}
				var err error
				if ev, err = r.spool.get(off); err != nil {
					yield(nil, err)
					return
				}
			} else {
				ev = mem[j]
				j++
				if want != nil && !want(k) {
					continue
				}
			}
			if !yield(ev, nil) {
				return
			}
		}
	}
}

// inMemory returns the timelines held in memory, by Seq: with a spool,
// those of the events still in flight.
func (r *Run) inMemory() []*EventTimeline {
	if r.spool == nil {
		slices.SortStableFunc(r.kept, bySeq)
		return r.kept
	}
	var out []*EventTimeline
	for _, seq := range slices.Sorted(maps.Keys(r.live)) {
		if ev := r.live[seq]; ev.timeline != nil {
			out = append(out, ev.timeline)
		}
	}
	return out
}

// spoolIndex returns the spooled timelines' places by Seq, those that share
// one in the order they were spooled.
func (r *Run) spoolIndex() []spoolEntry {
	if !r.spooledSorted {
		slices.SortStableFunc(r.spooled, func(x, y spoolEntry) int { return cmp.Compare(x.seq, y.seq) })
		r.spooledSorted = true
	}
	return r.spooled
}

// FirstTimelines returns the first n timelines Timelines yields.
func (r *Run) FirstTimelines(n int) ([]*EventTimeline, error) {
	var out []*EventTimeline
	if n <= 0 {
		return out, nil
	}
	for ev, err := range r.Timelines() {
		if err != nil {
			return out, err
		}
		out = append(out, ev)
		if len(out) == n {
			break
		}
	}
	return out, nil
}
