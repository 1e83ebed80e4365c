package report

import (
	"cmp"
	"iter"
	"slices"

	"github.com/retrysim/retrysim/simulator"
)

// spoolEntry says where an event's timeline ends in the spool.
type spoolEntry struct {
	seq  int
	last int64
}

func bySeq(x, y *EventTimeline) int { return cmp.Compare(x.Seq, y.Seq) }

func entryBySeq(x, y spoolEntry) int { return cmp.Compare(x.seq, y.seq) }

// hold starts keeping the timeline of the event rec is the first attempt of.
func (r *Summary) hold(ev *eventAgg, rec *simulator.Record) {
	if r.spool != nil {
		ev.spooled = &spoolTail{}
	} else {
		ev.timeline = &EventTimeline{ID: rec.Event, Seq: rec.Seq}
		r.kept = append(r.kept, ev.timeline)
	}
	r.open++
}

// keepRecord adds an attempt or attack record (by kind) to ev's timeline,
// if ev's timeline is kept.
func (r *Summary) keepRecord(ev *eventAgg, rec *simulator.Record, kind byte) error {
	switch {
	case ev.spooled != nil:
		return r.spool.add(ev.spooled, rec.Seq, kind, rec)
	case ev.timeline == nil:
		return nil
	case kind == chunkAttack:
		ev.timeline.Attacks = append(ev.timeline.Attacks, *rec)
	default:
		ev.timeline.Attempts = append(ev.timeline.Attempts, *rec)
	}
	r.held++
	r.peakHeld = max(r.peakHeld, r.held)
	return nil
}

// endTimeline gives ev's kept timeline its fate (rec's).
func (r *Summary) endTimeline(ev *eventAgg, rec *simulator.Record) error {
	switch {
	case ev.timeline != nil:
		ev.timeline.Fate = rec.Fate
	case ev.spooled != nil:
		last, err := r.spool.end(ev.spooled, rec.Seq, rec.Fate)
		if err != nil {
			return err
		}
		if n := len(r.closed); n > 0 && r.closed[n-1].seq > rec.Seq {
			r.closedSorted = false
		}
		r.closed = append(r.closed, spoolEntry{seq: rec.Seq, last: last})
		r.open--
	}
	return nil
}

// TimelineCount is how many events' timelines the run kept (see
// WithTimeline): what Timelines yields.
func (r *Summary) TimelineCount() int { return len(r.closed) + r.open }

// Timelines yields the kept events' timelines in Seq order (events that
// share a Seq, which only a hand-made stream has, in the order they began).
// Spooled timelines are read back one at a time, so ranging over every
// event of a huge run holds one of them at once; a timeline that cannot be
// read back is yielded as an error, and ends the sequence.
func (r *Summary) Timelines() iter.Seq2[*EventTimeline, error] { return r.timelines(nil) }

// timelines is Timelines without the timelines whose place in it want
// refuses (want nil takes all): those are not even read back.
func (r *Summary) timelines(want func(i int) bool) iter.Seq2[*EventTimeline, error] {
	return func(yield func(*EventTimeline, error) bool) {
		if r.spool == nil {
			slices.SortStableFunc(r.kept, bySeq)
			for i, ev := range r.kept {
				if (want == nil || want(i)) && !yield(ev, nil) {
					return
				}
			}
			return
		}
		closed, open := r.closedIndex(), r.openIndex()
		i, j := 0, 0
		for k := 0; i < len(closed) || j < len(open); k++ {
			// A closed event ended before an open one with its Seq began,
			// so it comes first.
			var e spoolEntry
			if j == len(open) || (i < len(closed) && closed[i].seq <= open[j].seq) {
				e = closed[i]
				i++
			} else {
				e = open[j]
				j++
			}
			if want != nil && !want(k) {
				continue
			}
			ev, err := r.spool.get(e.seq, e.last)
			if err != nil {
				yield(nil, err)
				return
			}
			if !yield(ev, nil) {
				return
			}
		}
	}
}

// closedIndex returns the closed events' entries by Seq, those that share
// one in the order they ended.
func (r *Summary) closedIndex() []spoolEntry {
	if !r.closedSorted {
		slices.SortStableFunc(r.closed, entryBySeq)
		r.closedSorted = true
	}
	return r.closed
}

// openIndex returns the entries of the events in flight whose timeline is
// spooled, by Seq.
func (r *Summary) openIndex() []spoolEntry {
	var out []spoolEntry
	for seq, ev := range r.live {
		if ev.spooled != nil && ev.spooled.last != 0 {
			out = append(out, spoolEntry{seq: seq, last: ev.spooled.last})
		}
	}
	slices.SortFunc(out, entryBySeq)
	return out
}

// FirstTimelines returns the first n timelines Timelines yields.
func (r *Summary) FirstTimelines(n int) ([]*EventTimeline, error) {
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
