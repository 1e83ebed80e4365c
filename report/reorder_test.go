package report

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestReordersCountsAndForgets: a pair is counted when an older event about
// an object first arrives after a newer one, and nothing is kept of an
// object once none of its events seen is still to arrive or end.
func TestReordersCountsAndForgets(t *testing.T) {
	o := newReorders()
	o.seen(0, "cus_A")
	o.seen(1, "cus_A")
	o.seen(2, "cus_B")
	o.arrive(1, "cus_A", 10) // newer than 0, arrives first
	o.arrive(2, "cus_B", 11)
	if len(o.objects) != 1 || o.object("cus_A") == nil {
		t.Fatalf("kept %d objects; want cus_A only, whose event 0 may still arrive", len(o.objects))
	}
	o.arrive(0, "cus_A", 12) // older, after the newer one: a pair
	if o.pairs != 1 {
		t.Fatalf("%d pairs, want 1", o.pairs)
	}
	for seq := range 3 {
		o.resolve(seq)
	}
	if len(o.objects) != 0 || o.open.len() != 0 {
		t.Fatalf("kept %d objects and %d events after every event ended, want none", len(o.objects), o.open.len())
	}
	// An event that ends without arriving lets the newer ones go too.
	o.seen(3, "cus_C")
	o.arrive(4, "cus_C", 20)
	o.resolve(3)
	if len(o.objects) != 0 {
		t.Fatalf("kept %d objects after event 3 ended, want none", len(o.objects))
	}
	o.arrive(5, "cus_C", 21)
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
	o.seen(0, "cus_stuck")
	for seq := 1; seq < 10000; seq += 3 { // a shard's events: every third
		obj := fmt.Sprintf("cus_%d", seq/4)
		o.seen(seq, obj)
		o.arrive(seq, obj, int64(seq))
		o.resolve(seq)
	}
	if len(o.objects) != 1 || o.open.len() != 1 || len(o.open.pages) != 1 {
		t.Fatalf("kept %d objects and %d events on %d pages; want the one in flight, on one page",
			len(o.objects), o.open.len(), len(o.open.pages))
	}
}

// TestOpenEventsBelowZero: a corrupt stream's negative sequence numbers
// are followed apart from the others, and go when they end.
func TestOpenEventsBelowZero(t *testing.T) {
	o := newReorders()
	for _, seq := range []int{-65, -64, -1, 0, 63, 64} {
		o.seen(seq, "cus_A")
	}
	var seqs []int
	for seq := range o.open.all() {
		seqs = append(seqs, seq)
	}
	slices.Sort(seqs)
	if want := []int{-65, -64, -1, 0, 63, 64}; !slices.Equal(seqs, want) {
		t.Fatalf("following events %v, want %v", seqs, want)
	}
	o.arrive(64, "cus_A", 1)
	o.arrive(-64, "cus_A", 2) // older, after: a pair
	if o.pairs != 1 {
		t.Fatalf("%d pairs, want 1", o.pairs)
	}
	for _, seq := range []int{-65, -64, -1, 0, 63, 64} {
		o.resolve(seq)
	}
	if len(o.objects) != 0 || len(o.open.pages) != 0 {
		t.Fatalf("kept %d objects and %d pages after every event ended, want none", len(o.objects), len(o.open.pages))
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
				o.seen(r.e.seq, obj)
			case 1:
				o.seen(r.e.seq, obj)
				o.arrive(r.e.seq, obj, r.at)
			case 2:
				o.resolve(r.e.seq)
			}
		}
		if o.pairs != want {
			t.Fatalf("seed %d: %d pairs counted, %d in the stream", seed, o.pairs, want)
		}
		if len(o.objects) != 0 || o.open.len() != 0 {
			t.Fatalf("seed %d: kept %d objects and %d events after the run", seed, len(o.objects), o.open.len())
		}
	}
}

// TestReordersObjectsWithOneHash: objects whose hashes collide are kept
// apart: events about one pair only with each other, and each object goes
// once none of its events is still to arrive, whichever of the chain it is.
func TestReordersObjectsWithOneHash(t *testing.T) {
	objects := []string{"cus_A", "cus_B", "cus_C"}
	for _, order := range [][]int{{0, 1, 2}, {2, 1, 0}, {1, 0, 2}} {
		o := newReorders()
		for i, obj := range objects { // events 0-2, then 3-5 about the same objects
			o.seenAs(i, obj, 7)
			o.seenAs(i+3, obj, 7)
		}
		if len(o.objects) != 1 {
			t.Fatalf("%d hashes kept, want 1", len(o.objects))
		}
		kept := func(object string) bool {
			for a := o.objects[7]; a != nil; a = a.next {
				if a.object == object {
					return true
				}
			}
			return false
		}
		// The newer event about each object arrives first, then the older
		// ones in order: one pair each. A pair across objects would count
		// more.
		for i := range objects {
			o.arrive(i+3, objects[i], int64(10+i))
		}
		left := map[int]bool{0: true, 1: true, 2: true}
		for n, i := range order {
			o.arrive(i, objects[i], int64(20+n))
			delete(left, i)
			for j := range objects {
				if kept(objects[j]) != left[j] {
					t.Fatalf("order %v, after event %d arrived: %s kept %v, want %v", order, i, objects[j], kept(objects[j]), left[j])
				}
			}
		}
		if o.pairs != 3 {
			t.Fatalf("order %v: %d pairs, want 3", order, o.pairs)
		}
		if len(o.objects) != 0 {
			t.Fatalf("order %v: %d hashes kept after every event arrived", order, len(o.objects))
		}
	}
}
