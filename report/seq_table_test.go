package report

import (
	"math/rand/v2"
	"testing"
)

// TestSeqTableAsAMap: whatever the order of puts, gets and deletes, and
// however they move between pages (present, absent, emptied), through
// whichever lanes (a page one lane made or emptied is seen by every other
// that remembered it, or that moves on to it from the page before), the
// table answers as a map by sequence number would.
func TestSeqTableAsAMap(t *testing.T) {
	for _, c := range []struct {
		name   string
		spread int // sequence numbers in use, from -40
		puts   int // in four steps
	}{
		{"pages mostly held", 200, 2},
		{"pages often emptied", 64, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(1, 2))
			tab := newSeqTable[int]()
			want := map[int]int{}
			seq := 0
			for i := range 200000 {
				if r.IntN(2) == 0 {
					seq = r.IntN(c.spread) - 40 // a few pages, some below zero
				} else {
					seq = (seq+40+seqPageSize)%c.spread - 40 // on to the next page, as a lane does
				}
				lane := r.IntN(2 * seqLanes) // each lane remembers its own page, some share one
				if r.IntN(4) < c.puts {
					v := r.IntN(1000) + 1
					tab.put(lane, seq, v)
					want[seq] = v
				} else {
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
		})
	}
}
