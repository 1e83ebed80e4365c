package report

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestReordersCountsAndForgets: a pair is counted when an older event about
// an object first arrives after a newer one, and nothing is kept of an
// object once none of its events seen is still to arrive or end.
func TestReordersCountsAndForgets(t *testing.T) {
	o := newReorders()
	o.seen(1, 0, "cus_A")
	o.seen(1, 1, "cus_A")
	o.seen(1, 2, "cus_B")
	o.arrive(1, 1, "cus_A", 10) // newer than 0, arrives first
	o.arrive(1, 2, "cus_B", 11)
	if o.kept() != 1 || !keeps(&o, "cus_A") {
		t.Fatalf("kept %d objects; want cus_A only, whose event 0 may still arrive", o.kept())
	}
	o.arrive(1, 0, "cus_A", 12) // older, after the newer one: a pair
	if o.pairs != 1 {
		t.Fatalf("%d pairs, want 1", o.pairs)
	}
	for seq := range 3 {
		o.resolve(1, seq)
	}
	if o.kept() != 0 || o.open.len() != 0 {
		t.Fatalf("kept %d objects and %d events after every event ended, want none", o.kept(), o.open.len())
	}
	// An event that ends without arriving lets the newer ones go too.
	o.seen(1, 3, "cus_C")
	o.arrive(1, 4, "cus_C", 20)
	o.resolve(1, 3)
	if o.kept() != 0 {
		t.Fatalf("kept %d objects after event 3 ended, want none", o.kept())
	}
	o.arrive(1, 5, "cus_C", 21)
	if o.pairs != 1 {
		t.Fatalf("%d pairs, want 1: events arriving in order make none", o.pairs)
	}
}

// TestReordersKeepsOnlyWhatIsInFlight: one event retried for hours does not
// hold back what is kept of the thousands of events about other objects
// that arrive and end meanwhile, nor does a shard's stream, in which other
// shards' events never appear.
func TestReordersKeepsOnlyWhatIsInFlight(t *testing.T) {
	o := newReorders()
	o.seen(1, 0, "cus_stuck")
	for seq := 1; seq < 10000; seq += 3 { // a shard's events: every third
		obj := fmt.Sprintf("cus_%d", seq/4)
		o.seen(1, seq, obj)
		o.arrive(1, seq, obj, int64(seq))
		o.resolve(1, seq)
	}
	if o.kept() != 0 || o.waiting.len() != 1 || o.open.len() != 1 || len(o.open.pages) != 1 {
		t.Fatalf("kept %d objects, %d counts and %d events on %d pages; want only the event in flight, on one page, and its object's count (nothing of it arrived)",
			o.kept(), o.waiting.len(), o.open.len(), len(o.open.pages))
	}
}

// TestReordersAgainstABlackHole: while nothing has arrived, the events in
// flight cost their place in open and no count per object; the first
// arrival, after thousands of events about its object began, still pairs
// with a later one that is older, and what is kept goes once they end.
func TestReordersAgainstABlackHole(t *testing.T) {
	o := newReorders()
	for seq := range 5000 {
		for attempt := 1; attempt <= 3; attempt++ {
			o.seen(attempt, seq, fmt.Sprintf("cus_%d", seq%100))
		}
	}
	if o.waiting.len() != 0 || o.open.len() != 5000 {
		t.Fatalf("%d counts and %d events with nothing arrived; want no count and every event", o.waiting.len(), o.open.len())
	}
	o.arrive(4, 4999, "cus_99", 1)
	o.arrive(4, 99, "cus_99", 2) // older, after: a pair
	o.arrive(4, 98, "cus_98", 3) // alone of its object, though cus_98 has 49 more in flight
	if o.pairs != 1 {
		t.Fatalf("%d pairs, want 1", o.pairs)
	}
	for seq := range 4999 {
		if seq != 4899 { // cus_99's, begun before the first arrival, yet to arrive
			o.resolve(4, seq)
		}
	}
	if o.kept() != 1 {
		t.Fatalf("kept %d objects with an event still to arrive, want 1", o.kept())
	}
	o.arrive(5, 4899, "cus_99", 4) // older than 4999, after it: a pair
	if o.pairs != 2 {
		t.Fatalf("%d pairs, want 2", o.pairs)
	}
	o.resolve(5, 4899)
	o.resolve(4, 4999)
	if o.kept() != 0 || o.waiting.len() != 0 || o.open.len() != 0 {
		t.Fatalf("kept %d objects, %d counts and %d events after the run", o.kept(), o.waiting.len(), o.open.len())
	}
}

// TestOpenEventsBelowZero: a corrupt stream's negative sequence numbers
// are followed apart from the others, and go when they end.
func TestOpenEventsBelowZero(t *testing.T) {
	o := newReorders()
	for _, seq := range []int{-65, -64, -1, 0, 63, 64} {
		o.seen(1, seq, "cus_A")
	}
	var seqs []int
	for seq := range o.open.all() {
		seqs = append(seqs, seq)
	}
	slices.Sort(seqs)
	if want := []int{-65, -64, -1, 0, 63, 64}; !slices.Equal(seqs, want) {
		t.Fatalf("following events %v, want %v", seqs, want)
	}
	o.arrive(1, 64, "cus_A", 1)
	o.arrive(1, -64, "cus_A", 2) // older, after: a pair
	if o.pairs != 1 {
		t.Fatalf("%d pairs, want 1", o.pairs)
	}
	for _, seq := range []int{-65, -64, -1, 0, 63, 64} {
		o.resolve(1, seq)
	}
	if o.kept() != 0 || len(o.open.pages) != 0 {
		t.Fatalf("kept %d objects and %d pages after every event ended, want none", o.kept(), len(o.open.pages))
	}
}

// TestReordersCountsEveryPair: against a count of every pair, on streams
// as a run writes them: events start in sequence order, each about one of a
// few objects, first arrive in any order or never, and end.
func TestReordersCountsEveryPair(t *testing.T) {
	type ev struct {
		seq, object int
		start       int64
		arrival     int64 // -1: never arrives
		end         int64
	}
	for seed := range uint64(20) {
		rng := rand.New(rand.NewPCG(seed, 29))
		var evs []ev
		for seq := range 300 {
			e := ev{seq: seq, object: rng.IntN(40), start: int64(seq * 10)}
			e.arrival = e.start + int64(rng.IntN(2000))
			if rng.IntN(5) == 0 {
				e.arrival = -1
			}
			e.end = max(e.arrival, e.start) + int64(rng.IntN(500))
			evs = append(evs, e)
		}
		want := 0
		for _, a := range evs {
			for _, b := range evs {
				if a.object == b.object && a.seq < b.seq && a.arrival >= 0 && b.arrival >= 0 && b.arrival < a.arrival {
					want++
				}
			}
		}
		// The records in time order: a start, an arrival, an end.
		type rec struct {
			at   int64
			kind int // 0 seen, 1 arrive, 2 end
			e    ev
		}
		var recs []rec
		for _, e := range evs {
			recs = append(recs, rec{e.start, 0, e}, rec{e.end, 2, e})
			if e.arrival >= 0 {
				recs = append(recs, rec{e.arrival, 1, e})
			}
		}
		slices.SortStableFunc(recs, func(x, y rec) int {
			if x.at != y.at {
				return int(x.at - y.at)
			}
			return x.kind - y.kind
		})
		o := newReorders()
		for _, r := range recs {
			obj := fmt.Sprintf("obj-%d", r.e.object)
			switch r.kind {
			case 0:
				o.seen(1, r.e.seq, obj)
			case 1: // a later attempt, in its own lane
				lane := 2 + r.e.seq%5
				o.seen(lane, r.e.seq, obj)
				o.arrive(lane, r.e.seq, obj, r.at)
			case 2:
				o.resolve(7, r.e.seq)
			}
		}
		if o.pairs != want {
			t.Fatalf("seed %d: %d pairs counted, %d in the stream", seed, o.pairs, want)
		}
		if o.kept() != 0 || o.waiting.len() != 0 || o.open.len() != 0 {
			t.Fatalf("seed %d: kept %d objects, %d counts and %d events after the run", seed, o.kept(), o.waiting.len(), o.open.len())
		}
	}
}

// TestReordersObjectsOfOneHash: two objects whose hashes are equal are
// still two objects: their events pair only with their own, and what is
// kept of them goes once neither has an event to arrive.
func TestReordersObjectsOfOneHash(t *testing.T) {
	byHash := map[uint32]string{}
	var a, b string
	for i := 0; a == ""; i++ {
		name := fmt.Sprintf("cus_%d", i)
		h := objectHash(name)
		if other, ok := byHash[h]; ok {
			a, b = other, name
		}
		byHash[h] = name
	}
	o := newReorders()
	o.seen(1, 0, a)
	o.seen(1, 1, b)
	o.seen(1, 2, b)
	o.arrive(1, 2, b, 10) // b's newer event first
	o.arrive(1, 0, a, 11) // a's only event: pairs with nothing of b's
	if o.pairs != 0 {
		t.Fatalf("%d pairs between %q and %q, which share a hash only", o.pairs, a, b)
	}
	o.arrive(1, 1, b, 12) // b's older event after its newer one: a pair
	if o.pairs != 1 {
		t.Fatalf("%d pairs, want 1", o.pairs)
	}
	for seq := range 3 {
		o.resolve(1, seq)
	}
	if o.kept() != 0 || o.waiting.len() != 0 {
		t.Fatalf("kept %d objects and %d counts after every event ended", o.kept(), o.waiting.len())
	}
}

// keeps reports whether o keeps object's arrivals.
func keeps(o *reorders, object string) bool {
	_, _, ok := o.objects.find(objectHash(object), object)
	return ok
}

// TestReordersReuseWhatGoes: over a long stream whose objects each live a
// short while, what is kept of an object that went (its record, further
// arrivals and name) is reused by the later ones, so the memory follows
// the objects in flight, not those of the run; and the count still
// matches every pair in the stream.
func TestReordersReuseWhatGoes(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 27))
	const events = 60000
	type ev struct {
		object              int
		start, arrival, end int64 // arrival -1: never arrives
	}
	evs := make([]ev, events)
	for seq := range evs {
		e := ev{object: seq/3 + rng.IntN(4), start: int64(seq * 10)}
		e.arrival = e.start + int64(rng.IntN(500))
		if rng.IntN(5) == 0 {
			e.arrival = -1
		}
		e.end = max(e.arrival, e.start) + int64(rng.IntN(500))
		evs[seq] = e
	}
	want := 0
	for a := range evs {
		for b := a + 1; b < min(a+60, events); b++ { // arrivals come within 500 of their start, 10 apart
			ea, eb := evs[a], evs[b]
			if ea.object == eb.object && ea.arrival >= 0 && eb.arrival >= 0 && eb.arrival < ea.arrival {
				want++
			}
		}
	}
	type rec struct {
		at   int64
		kind int // 0 seen, 1 arrive, 2 end
		seq  int
	}
	var recs []rec
	for seq, e := range evs {
		recs = append(recs, rec{e.start, 0, seq}, rec{e.end, 2, seq})
		if e.arrival >= 0 {
			recs = append(recs, rec{e.arrival, 1, seq})
		}
	}
	slices.SortStableFunc(recs, func(x, y rec) int {
		if x.at != y.at {
			return int(x.at - y.at)
		}
		return x.kind - y.kind
	})
	o := newReorders()
	long := strings.Repeat("x", 40) // names that add up: 3 MB over the stream
	for _, r := range recs {
		obj := fmt.Sprintf("obj-%d-%s", evs[r.seq].object, long)
		switch r.kind {
		case 0:
			o.seen(1, r.seq, obj)
		case 1:
			o.arrive(2, r.seq, obj, r.at)
		case 2:
			o.resolve(3, r.seq)
		}
	}
	if o.pairs != want || want == 0 {
		t.Fatalf("%d pairs counted, %d in the stream", o.pairs, want)
	}
	if o.kept() != 0 || o.waiting.len() != 0 || o.open.len() != 0 {
		t.Fatalf("kept %d objects, %d counts and %d events after the stream", o.kept(), o.waiting.len(), o.open.len())
	}
	// About 100 events are in flight at once, about 35 objects: a few
	// hundred records at most, against 20,000 objects in the stream.
	if k := o.objects; len(k.objs) > 500 || len(k.more) > 500 || len(k.names) > 200_000 {
		t.Fatalf("%d object records, %d further arrivals and %d bytes of names for a stream of at most a few hundred at once",
			len(k.objs), len(k.more), len(k.names))
	}
}

// TestReordersBigSequenceNumbers: sequence numbers that do not fit in 32
// bits (a corrupt stream's, or a run of billions of events), and the one
// that stands for them, pair as any other and are let go with their
// object.
func TestReordersBigSequenceNumbers(t *testing.T) {
	o := newReorders()
	seqs := []int{-1 << 40, math.MinInt32, 5, 1 << 40, 1<<40 + 1}
	for _, seq := range seqs {
		o.seen(1, seq, "cus_A")
	}
	for i := range seqs { // newest first: every pair out of order
		o.arrive(2, seqs[len(seqs)-1-i], "cus_A", int64(i))
	}
	if want := len(seqs) * (len(seqs) - 1) / 2; o.pairs != want {
		t.Fatalf("%d pairs, want %d", o.pairs, want)
	}
	for _, seq := range seqs {
		o.resolve(3, seq)
	}
	if o.kept() != 0 || len(o.objects.bigSeqs) != 0 {
		t.Fatalf("kept %d objects and %d big sequence numbers after every event ended", o.kept(), len(o.objects.bigSeqs))
	}
}
