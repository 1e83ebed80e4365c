package report

import (
	"math/rand/v2"
	"testing"
)

// TestSeqTableAsAMap: whatever the order of puts, gets and deletes, and
// however they move between pages (present, absent, emptied), through
// whichever lanes (a page one lane made or emptied is seen by every other
// that remembered it), the table answers as a map by sequence number would.
func TestSeqTableAsAMap(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	tab := newSeqTable[int]()
	want := map[int]int{}
	for i := range 200000 {
		seq := r.IntN(200) - 40      // a few pages, some below zero
		lane := r.IntN(2 * seqLanes) // each lane remembers its own page, some share one
		switch r.IntN(3) {
		case 0:
			v := r.IntN(1000) + 1
			tab.put(lane, seq, v)
			want[seq] = v
		case 1:
			tab.delete(lane, seq)
			delete(want, seq)
		}
		if got := tab.get(r.IntN(2*seqLanes), seq); got != want[seq] {
			t.Fatalf("step %d: get(%d) = %d, want %d", i, seq, got, want[seq])
		}
		if tab.len() != len(want) {
			t.Fatalf("step %d: len %d, want %d", i, tab.len(), len(want))
		}
	}
	for seq, v := range tab.all() {
		if want[seq] != v {
			t.Fatalf("all yields %d: %d, want %d", seq, v, want[seq])
		}
	}
}
