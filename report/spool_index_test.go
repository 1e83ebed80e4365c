package report

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// The index yields its entries by Seq, those that share one in the order
// they closed, across many blocks, whatever order they closed in; and it
// can be read, added to and read again.
func TestClosedIndexBySeq(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var x closedIndex
	var all []spoolEntry
	last := int64(0)
	add := func(n int) {
		for range n {
			// Events close roughly in order, some much later, a few
			// share a Seq (a hand-made stream); the spool only grows.
			seq := len(all) + rng.IntN(50) - 25
			if rng.IntN(20) == 0 {
				seq = rng.IntN(len(all) + 1)
			}
			last += int64(1 + rng.IntN(1<<20))
			e := spoolEntry{seq: max(seq, 0), last: last}
			all = append(all, e)
			x.add(e)
		}
	}
	check := func() {
		t.Helper()
		want := slices.Clone(all)
		slices.SortStableFunc(want, entryBySeq)
		var got []spoolEntry
		rd := x.sorted()
		for e, ok := rd.next(); ok; e, ok = rd.next() {
			got = append(got, e)
		}
		if x.len() != len(all) || !slices.Equal(got, want) {
			t.Fatalf("the index yields %d entries (says %d) not in the order of %d sorted stably by Seq", len(got), x.len(), len(want))
		}
	}
	add(3*closedBlock + 17)
	check()
	add(closedBlock / 2)
	check()
	var empty closedIndex
	if _, ok := empty.sorted().next(); ok {
		t.Error("an empty index yields an entry")
	}
}
