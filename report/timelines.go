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

// hold starts keeping the timeline of the event rec is the first attempt
// (or, for an event never attempted, the fate) of.
func (r *Summary) hold(ev *eventAgg, rec *simulator.Record) {
	if r.spool != nil {
		ev.spooled = &spoolTail{id: rec.Event, object: rec.Object}
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

// poolFree says whether the event rec is the first attempt of may have its
// timeline held until its fate is known, in a run that keeps the first keep
// events' timelines (0 none, < 0 all).
func (r *Summary) poolFree(rec *simulator.Record, keep int) bool {
	return keep > 0 && rec.Seq >= keep && rec.Attempt == 1 && rec.Copy == 0 && r.tally.pooled < poolSize
}

// pool holds the timeline of an event beyond the first ones, in case its
// fate makes it an exemplar of its kind.
func (r *Summary) pool(ev *eventAgg, rec *simulator.Record) {
	r.hold(ev, rec)
	ev.pooled = true
	r.tally.pooled++
}

// settle counts the kinds of fate of the event rec closes (ev is what was
// followed of it, if anything), and ends its timeline if it is kept: an
// event beyond the first keep is kept only as an exemplar of a kind that
// has too few, and an event that was never attempted gets a timeline of no
// attempts, so a sample can show it too.
func (r *Summary) settle(ev *eventAgg, rec *simulator.Record, keep int) error {
	kinds := fateKinds(ev, rec)
	r.tally.count(kinds)
	exemplar := keep > 0 && rec.Seq >= keep && r.tally.wanted(kinds, keep)
	if ev != nil && ev.pooled {
		r.tally.pooled--
		if !exemplar {
			r.drop(ev)
			return nil
		}
		r.tally.keepExemplar(kinds)
	}
	if ev == nil && rec.Attempts == 0 && (keep < 0 || rec.Seq < keep || exemplar) {
		if keep >= 0 && rec.Seq >= keep {
			r.tally.keepExemplar(kinds)
		}
		ev = &eventAgg{}
		r.hold(ev, rec)
	}
	if ev == nil || (ev.timeline == nil && ev.spooled == nil) {
		return nil
	}
	r.tally.offer(sampleEntry{seq: rec.Seq, id: rec.Event, kinds: kinds})
	return r.endTimeline(ev, rec)
}

// drop lets go of a pooled timeline that is not kept after all.
func (r *Summary) drop(ev *eventAgg) {
	if tl := ev.timeline; tl != nil {
		r.held -= len(tl.Attempts) + len(tl.Attacks)
		tl.Attempts, tl.Attacks, tl.dropped = nil, nil, true
		r.dropped++
		r.open--
		ev.timeline = nil
	}
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

// timelines is Timelines without the timelines of the events whose Seq
// want refuses (want nil takes all): those are not even read back.
func (r *Summary) timelines(want func(seq int) bool) iter.Seq2[*EventTimeline, error] {
	return func(yield func(*EventTimeline, error) bool) {
		if r.spool == nil {
			r.compact()
			for _, ev := range r.kept {
				if (want == nil || want(ev.Seq)) && !yield(ev, nil) {
					return
				}
			}
			return
		}
		closed, open := r.closedIndex(), r.openIndex()
		i, j := 0, 0
		for i < len(closed) || j < len(open) {
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
			if want != nil && !want(e.seq) {
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

// compact leaves the dropped timelines out of kept, which it sorts by Seq.
func (r *Summary) compact() {
	if r.dropped > 0 {
		r.kept = slices.DeleteFunc(r.kept, func(ev *EventTimeline) bool { return ev.dropped })
		r.dropped = 0
	}
	slices.SortStableFunc(r.kept, bySeq)
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
