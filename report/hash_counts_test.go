package report

import (
	"math/rand/v2"
	"testing"
)

// hashCounts counts as a map does, through growth and removals, with
// hashes that crowd the same slots.
func TestHashCountsAgainstAMap(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var c hashCounts
	want := map[uint32]int32{}
	for step := range 200_000 {
		h := uint32(rng.IntN(3000)) << 18 // few distinct low bits: long probe runs
		if rng.IntN(3) == 0 {
			h = uint32(rng.IntN(1 << 30))
		}
		d := int32(1)
		if want[h] > 0 && rng.IntN(2) == 0 {
			d = -1
		}
		got := c.add(h, d)
		want[h] += d
		if want[h] == 0 {
			delete(want, h)
		}
		if got != want[h] || c.len() != len(want) {
			t.Fatalf("step %d: hash %#x counts %d (want %d); %d counted, want %d", step, h, got, want[h], c.len(), len(want))
		}
	}
	for h, n := range want {
		if got := c.add(h, 0); got != n {
			t.Fatalf("hash %#x counts %d, want %d", h, got, n)
		}
	}
}
