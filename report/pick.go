package report

import (
	"slices"

	"github.com/retrysim/retrysim/simulator"
)

// FateKind is one kind of thing that can happen to an event, as a subset of
// events shown (a chart's rows, the text timeline) must show every kind
// present. An event can be of several kinds at once (lost to a disable
// after a refused arrival); FateKinds is a set of them.
type FateKind uint8

// The kinds of fate, in the order a sample shows them first.
const (
	KindReprocessed   FateKind = iota // the oracle shows it processed more than once
	KindLostToDisable                 // never delivered: the endpoint was disabled
	KindNeverSent                     // not even attempted: the endpoint was disabled first
	KindGivenUp                       // never delivered: the provider gave up
	KindDuplicated                    // reached the handler again after it took it in
	KindRefused                       // the handler turned an arrival away with a 4xx
	KindLate                          // delivered, on a retry
	KindDelivered                     // delivered at the first attempt
	KindInterrupted                   // the run was interrupted first
	numFateKinds
)

// FateKinds is a set of FateKind.
type FateKinds uint16

// Has says whether k is in the set.
func (s FateKinds) Has(k FateKind) bool { return s&(1<<k) != 0 }

func (s FateKinds) with(k FateKind) FateKinds { return s | 1<<k }

// fateKinds decides the kinds of the event that rec closes (ev is what was
// followed of it, nil when nothing was). KindReprocessed needs the effects,
// read after the run: it is found at render time (see Summary.Kinds).
func fateKinds(ev *eventAgg, rec *simulator.Record) FateKinds {
	var s FateKinds
	switch rec.Fate {
	case simulator.FateDelivered:
		if rec.Attempts > 1 {
			s = s.with(KindLate)
		} else {
			s = s.with(KindDelivered)
		}
	case simulator.FateDisabled:
		s = s.with(KindLostToDisable)
		if rec.Attempts == 0 {
			s = s.with(KindNeverSent)
		}
	case simulator.FateInterrupted:
		s = s.with(KindInterrupted)
	default:
		s = s.with(KindGivenUp)
	}
	if ev != nil {
		if ev.duplicated {
			s = s.with(KindDuplicated)
		}
		if ev.refused {
			s = s.with(KindRefused)
		}
	}
	return s
}

// sampleCap is how many events of one kind a run remembers as candidates
// for a sample: evenly spread over the run, however long.
const sampleCap = 256

// sampleEntry is one candidate event for a sample.
type sampleEntry struct {
	seq   int
	id    string
	kinds FateKinds
}

// spread keeps up to sampleCap entries evenly spread over all those
// offered: every stride-th, the stride doubling (and every other entry
// going) whenever the list fills up.
type spread struct {
	entries []sampleEntry
	stride  int
	offered int
}

func (s *spread) offer(e sampleEntry) {
	if s.stride == 0 {
		s.stride = 1
	}
	s.offered++
	if (s.offered-1)%s.stride != 0 {
		return
	}
	s.entries = append(s.entries, e)
	if len(s.entries) >= sampleCap {
		kept := s.entries[:0]
		for i, e := range s.entries {
			if i%2 == 0 {
				kept = append(kept, e)
			}
		}
		s.entries = kept
		s.stride *= 2
	}
}

// fateTally is what a run keeps for sampling: how many events were of each
// kind, and candidates of each kind whose timeline is kept.
type fateTally struct {
	counts [numFateKinds]int
	of     [numFateKinds]spread
	all    spread
	// exemplars counts, in a run that keeps only its first timelines,
	// those kept besides as examples of their kind (see wanted).
	exemplars [numFateKinds]int
	pooled    int // timelines held for events in flight beyond the first ones
}

// clone returns a copy of t that later events do not change.
func (t fateTally) clone() fateTally {
	for k := range t.of {
		t.of[k].entries = slices.Clone(t.of[k].entries)
	}
	t.all.entries = slices.Clone(t.all.entries)
	return t
}

// poolSize bounds the events in flight beyond the first ones whose
// timelines such a run holds until their fate says whether they are kept.
const poolSize = 64

func (t *fateTally) count(kinds FateKinds) {
	for k := range numFateKinds {
		if kinds.Has(k) {
			t.counts[k]++
		}
	}
}

// wanted says whether an event of kinds, beyond the first keep, is worth
// keeping as an example: a kind of it has fewer than keep, so a sample of
// keep events can still show as many of that kind as its share.
func (t *fateTally) wanted(kinds FateKinds, keep int) bool {
	for k := range numFateKinds {
		if kinds.Has(k) && t.exemplars[k] < keep {
			return true
		}
	}
	return false
}

func (t *fateTally) keepExemplar(kinds FateKinds) {
	for k := range numFateKinds {
		if kinds.Has(k) {
			t.exemplars[k]++
		}
	}
}

func (t *fateTally) offer(e sampleEntry) {
	t.all.offer(e)
	for k := range numFateKinds {
		if e.kinds.Has(k) {
			t.of[k].offer(e)
		}
	}
}

// KindCount is how many of a run's events were of one kind, and how many
// of them a sample shows.
type KindCount struct {
	Kind         FateKind
	Total, Shown int
}

// Shown is what a sample of a run's events shows: which events, and by
// kind how many it shows of how many.
type Shown struct {
	Events []*EventTimeline
	// Kinds lists every kind present in the run, in FateKind order.
	Kinds []KindCount
	// Of is the number of events the run had.
	Of int
	// Every says every event of the run is shown.
	Every bool
	// EffectsKnown says the oracle's counts split the duplicated events
	// into those processed more than once and those processed once.
	EffectsKnown bool
}

// LeftOut says whether the sample leaves an event of some kind out.
func (s Shown) LeftOut() bool {
	for _, k := range s.Kinds {
		if k.Shown < k.Total {
			return true
		}
	}
	return false
}

// Missing lists the kinds present in the run of which the sample shows
// none.
func (s Shown) Missing() []FateKind {
	var out []FateKind
	for _, k := range s.Kinds {
		if k.Total > 0 && k.Shown == 0 {
			out = append(out, k.Kind)
		}
	}
	return out
}

// Overlap says whether an event of the run is of several kinds (a
// duplicated event delivered at the first attempt, a refused one given up):
// counted in each, the kinds' counts add up to more than the events.
func (s Shown) Overlap() bool {
	shown, total := 0, 0
	for _, k := range s.Kinds {
		shown += k.Shown
		total += k.Total
	}
	return shown > len(s.Events) || total > s.Of
}

// reprocessedSet is the events the oracle shows processed more than once
// (Offenders), as a set: the run's events only. A replayed request an
// attack sent on its own id is an offender too, but no event of the run,
// so no sample can show it: counted as one, it made a sample say it had
// kept none of them to show, and took its number off the events reached
// again.
func (r *Summary) reprocessedSet() map[string]bool {
	set := map[string]bool{}
	if r.EffectsKnown {
		for _, id := range r.Offenders() {
			if !r.IsAttackID(id) {
				set[id] = true
			}
		}
	}
	return set
}

// Sample chooses up to n of the run's kept timelines to show: at least one
// of every kind of fate present (as far as one was kept), the others shared
// among the kinds by their size, spread over the run; all of them when
// there are no more than n. It reads back only the events it shows.
func (r *Summary) Sample(n int) (Shown, error) {
	reprocessed := r.reprocessedSet()
	// A duplicated event the oracle shows processed more than once is
	// counted as that, and the others as reached again, processed once.
	kindsOf := func(e sampleEntry) FateKinds {
		if reprocessed[e.id] {
			return e.kinds.with(KindReprocessed) &^ (1 << KindDuplicated)
		}
		return e.kinds
	}
	total := r.tally.counts
	total[KindReprocessed] = len(reprocessed)
	total[KindDuplicated] = max(0, total[KindDuplicated]-len(reprocessed))
	// Events still in flight at the end have no fate and no kind.
	sh := Shown{Of: max(r.Events, r.Planned), EffectsKnown: r.EffectsKnown}
	var picked []sampleEntry
	all := r.tally.all.entries
	switch {
	case n <= 0:
	case r.tally.all.offered <= n && r.tally.all.stride <= 1:
		picked = slices.Clone(all)
	default:
		picked = pick(n, &r.tally, reprocessed, total)
	}
	slices.SortFunc(picked, func(a, b sampleEntry) int { return a.seq - b.seq })
	want := map[int]bool{}
	var shownKinds [numFateKinds]int
	for _, e := range picked {
		want[e.seq] = true
		ks := kindsOf(e)
		for k := range numFateKinds {
			if ks.Has(k) {
				shownKinds[k]++
			}
		}
	}
	for k := range numFateKinds {
		if total[k] > 0 {
			sh.Kinds = append(sh.Kinds, KindCount{Kind: k, Total: total[k], Shown: shownKinds[k]})
		}
	}
	sh.Every = len(picked) == sh.Of
	if len(want) == 0 {
		return sh, nil
	}
	for ev, err := range r.timelines(func(seq int) bool { return want[seq] }) {
		if err != nil {
			return sh, err
		}
		sh.Events = append(sh.Events, ev)
	}
	return sh, nil
}

// pick chooses n entries: first one of each kind present, rarest kinds
// first, then the rest shared among the kinds by their size, each kind's
// share spread over its candidates.
func pick(n int, t *fateTally, reprocessed map[string]bool, total [numFateKinds]int) []sampleEntry {
	cands := t.of
	// The reprocessed events' candidates are the duplicated ones the
	// oracle names.
	cands[KindReprocessed] = spread{}
	for _, e := range t.of[KindDuplicated].entries {
		if reprocessed[e.id] {
			cands[KindReprocessed].entries = append(cands[KindReprocessed].entries, e)
		}
	}
	taken := map[int]bool{}
	var out []sampleEntry
	take := func(e sampleEntry) bool {
		if taken[e.seq] || len(out) == n {
			return false
		}
		taken[e.seq] = true
		out = append(out, e)
		return true
	}
	order := make([]FateKind, 0, numFateKinds)
	for k := range numFateKinds {
		if total[k] > 0 && len(cands[k].entries) > 0 {
			order = append(order, k)
		}
	}
	// Rarest first, so a kind of one or two events is never crowded out.
	slices.SortStableFunc(order, func(a, b FateKind) int { return total[a] - total[b] })
	for _, k := range order {
		es := cands[k].entries
		for _, e := range append(es[len(es)/2:], es[:len(es)/2]...) {
			if take(e) {
				break
			}
		}
	}
	// The rest by share of the events.
	sum := 0
	for _, k := range order {
		sum += total[k]
	}
	left := n - len(out)
	for _, k := range order {
		if left <= 0 || sum == 0 {
			break
		}
		share := left * total[k] / sum
		es := cands[k].entries
		for step := max(1, len(es)/max(share, 1)); share > 0; step = max(1, step/2) {
			for i := 0; i < len(es) && share > 0; i += step {
				if take(es[i]) {
					share--
				}
			}
			if step == 1 {
				break
			}
		}
	}
	// Whatever is left over: evenly over every candidate.
	for step := max(1, len(t.all.entries)/max(1, n-len(out))); len(out) < n; step = max(1, step/2) {
		before := len(out)
		for i := 0; i < len(t.all.entries); i += step {
			take(t.all.entries[i])
		}
		if len(out) == before && step == 1 {
			break
		}
	}
	return out
}
