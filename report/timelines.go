package report

import (
	"cmp"
	"iter"
	"slices"
	"time"

	"github.com/retrysim/retrysim/policies"

	"github.com/retrysim/retrysim/simulator"
)

// storesKey says whether attempt rec stored its event's dedup key: it
// reached the handler, which answered 2xx. An event's key is stored at the
// first such attempt; the aggregator and the timeline chart both ask this.
func storesKey(rec *simulator.Record) bool { return rec.Reached && policies.Is2xx(rec.HandlerStatus) }

// Key is when the event's dedup key was stored (see storesKey), and
// whether it was.
func (ev *EventTimeline) Key() (time.Time, bool) {
	for i := range ev.Attempts {
		if storesKey(&ev.Attempts[i]) {
			return ev.Attempts[i].Time, true
		}
	}
	return time.Time{}, false
}

// GaveUp reports whether the event's fate is that it was never delivered
// (see neverDelivered); an event still in flight has no fate yet.
func (ev *EventTimeline) GaveUp() bool { return ev.Fate != "" && neverDelivered(ev.Fate) }

// eventMarks are the facts about one event that its row of the timeline
// marks, with its dedup key kept for a given TTL.
type eventMarks struct {
	key    time.Time // when its dedup key was stored
	hasKey bool
	leaked []int // its attempts (by index) that arrived after the key expired
	gaveUp bool  // it was never delivered
	times  int   // how often the handler processed it, when more than once
}

// marksOf gathers what the run's facts say of event ev for its timeline
// row, its key kept for ttl: each from the one predicate of its fact.
func (r *Summary) marksOf(ev *EventTimeline, ttl time.Duration) eventMarks {
	m := eventMarks{gaveUp: ev.GaveUp(), times: r.ProcessedMoreThanOnce(ev.ID)}
	m.key, m.hasKey = ev.Key()
	if !m.hasKey {
		return m
	}
	for i := range ev.Attempts {
		if a := &ev.Attempts[i]; a.Reached && leaksPast(a.Time.Sub(m.key), ttl) {
			m.leaked = append(m.leaked, i)
		}
	}
	return m
}

// spoolEntry says where an event's timeline ends in the spool.
type spoolEntry struct {
	seq  int
	last int64
}

func bySeq(x, y *EventTimeline) int { return cmp.Compare(x.Seq, y.Seq) }

func entryBySeq(x, y spoolEntry) int { return cmp.Compare(x.seq, y.seq) }

// hold starts keeping the timeline of the event rec is the first attempt
// (or, for an event never attempted, the fate) of.
func (r *runAgg) hold(ev *eventAgg, rec *simulator.Record) {
	if r.spool != nil {
		ev.spooled = &spoolTail{id: rec.EventID, object: rec.Object}
	} else {
		ev.timeline = &EventTimeline{ID: rec.EventID, Seq: rec.Seq}
		r.kept = append(r.kept, ev.timeline)
	}
	r.open++
}

// keepRecord adds an attempt or attack record (by kind) to ev's timeline,
// if ev's timeline is kept.
func (r *runAgg) keepRecord(ev *eventAgg, rec *simulator.Record, kind byte) error {
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
func (r *runAgg) poolFree(rec *simulator.Record, keep int) bool {
	return keep > 0 && rec.Seq >= keep && rec.Attempt == 1 && rec.Copy == 0 && r.tally.pooled < poolSize
}

// pool holds the timeline of an event beyond the first ones, in case its
// fate makes it an exemplar of its kind.
func (r *runAgg) pool(ev *eventAgg, rec *simulator.Record) {
	r.hold(ev, rec)
	ev.pooled = true
	r.tally.pooled++
}

// closeEvent counts the kinds of fate of the event rec closes (ev is what was
// followed of it, if anything), and ends its timeline if it is kept: an
// event beyond the first keep is kept only as an exemplar of a kind that
// has too few, and an event that was never attempted gets a timeline of no
// attempts, so a sample can show it too.
func (r *runAgg) closeEvent(ev *eventAgg, rec *simulator.Record, keep int) error {
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
	r.tally.offer(sampleEntry{seq: rec.Seq, id: rec.EventID, kinds: kinds})
	return r.endTimeline(ev, rec)
}

// drop lets go of a pooled timeline that is not kept after all.
func (r *runAgg) drop(ev *eventAgg) {
	if tl := ev.timeline; tl != nil {
		r.held -= len(tl.Attempts) + len(tl.Attacks)
		tl.Attempts, tl.Attacks, tl.dropped = nil, nil, true
		r.dropped++
		r.open--
		ev.timeline = nil
		if r.dropped > poolSize && 2*r.dropped > len(r.kept) {
			// Every event may pass through the pool: left in kept until
			// the report, the dropped ones grew with the run (a GB in ten
			// million events whose pool turned over).
			r.kept = slices.DeleteFunc(r.kept, func(tl *EventTimeline) bool { return tl.dropped })
			r.dropped = 0
		}
	}
}

// endTimeline gives ev's kept timeline its fate (rec's).
func (r *runAgg) endTimeline(ev *eventAgg, rec *simulator.Record) error {
	switch {
	case ev.timeline != nil:
		ev.timeline.Fate = rec.Fate
		if len(ev.timeline.Attempts) == 0 {
			ev.timeline.Due = rec.Time
		}
	case ev.spooled != nil:
		last, err := r.spool.end(ev.spooled, rec.Seq, rec.Fate, rec.Time)
		if err != nil {
			return err
		}
		r.closed.add(spoolEntry{seq: rec.Seq, last: last})
		r.open--
	}
	return nil
}

// timelineView is where a concluded run's kept timelines are: in memory
// (kept, in Seq order), or in the spool at entries, in the order Timelines
// yields them.
type timelineView struct {
	kept  []*EventTimeline
	spool spoolReader // nil when the timelines are in memory
	// closed indexes the spooled timelines of the events closed so far
	// (its sealed blocks, which later closings never change), open those
	// of the events then in flight, by Seq.
	closed closedIndex
	open   []spoolEntry
	count  int
}

// spoolReader reads a spooled timeline back: all a run's facts may do
// with the spool the aggregation writes.
type spoolReader interface {
	get(seq int, last int64) (*EventTimeline, error)
}

// timelineView concludes where the run's kept timelines are, as of now:
// those in memory copied (a later attempt of an event in flight is not
// added to the copy), the spooled ones as entries of the spool, the
// closed and those in flight merged in Seq order.
func (r *runAgg) timelineView() timelineView {
	v := timelineView{count: r.closed.len() + r.open}
	if r.spool == nil {
		r.compact()
		v.kept = make([]*EventTimeline, len(r.kept))
		for i, ev := range r.kept {
			c := *ev
			c.Attempts, c.Attacks = slices.Clip(c.Attempts), slices.Clip(c.Attacks)
			v.kept[i] = &c
		}
		return v
	}
	v.spool = r.spool
	r.closed.seal()
	v.closed = closedIndex{n: r.closed.n, blocks: slices.Clip(r.closed.blocks)}
	v.open = r.openIndex()
	return v
}

// TimelineCount is how many events' timelines the run kept (see
// WithTimeline): what Timelines yields.
func (r *Summary) TimelineCount() int { return r.stored.count }

// Timelines yields the kept events' timelines in Seq order (events that
// share a Seq, which only a hand-made stream has, in the order they began).
// Spooled timelines are read back one at a time, so ranging over every
// event of a huge run holds one of them at once; a timeline that cannot be
// read back is yielded as an error, and ends the sequence.
func (r *Summary) Timelines() iter.Seq2[*EventTimeline, error] { return r.timelines(nil) }

// timelines is Timelines without the timelines of the events whose Seq
// want refuses (want nil takes all): those are not even read back.
func (r *Summary) timelines(want func(seq int) bool) iter.Seq2[*EventTimeline, error] {
	v := &r.stored
	return func(yield func(*EventTimeline, error) bool) {
		if v.spool == nil {
			for _, ev := range v.kept {
				if (want == nil || want(ev.Seq)) && !yield(ev, nil) {
					return
				}
			}
			return
		}
		closed, open := v.closed.sorted(), v.open
		c, more := closed.next()
		j := 0
		for more || j < len(open) {
			// A closed event ended before an open one with its Seq began,
			// so it comes first.
			var e spoolEntry
			if j == len(open) || (more && c.seq <= open[j].seq) {
				e = c
				c, more = closed.next()
			} else {
				e = open[j]
				j++
			}
			if want != nil && !want(e.seq) {
				continue
			}
			ev, err := v.spool.get(e.seq, e.last)
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
func (r *runAgg) compact() {
	if r.dropped > 0 {
		r.kept = slices.DeleteFunc(r.kept, func(ev *EventTimeline) bool { return ev.dropped })
		r.dropped = 0
	}
	slices.SortStableFunc(r.kept, bySeq)
}

// openIndex returns the entries of the events in flight whose timeline is
// spooled, by Seq.
func (r *runAgg) openIndex() []spoolEntry {
	var out []spoolEntry
	for seq, ev := range r.live.all() {
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
