package simulator

import (
	"sync/atomic"
	"testing"
)

// TestFlightSignalsReachedOncePerUse: a flight tells the scheduler once per
// use that its request reached the handler, however many of the attempt's
// requests were written, and a write of an earlier use that ends late is
// told with that use's number (which the scheduler ignores) or not at all,
// never as the current use's.
func TestFlightSignalsReachedOncePerUse(t *testing.T) {
	ch := make(chan signal, 8)
	f := &flight{signals: ch}
	got := func() []uint32 {
		var gens []uint32
		for len(ch) > 0 {
			gens = append(gens, (<-ch).gen)
		}
		return gens
	}
	f.gen = 1
	f.wrote(f.watching())
	f.wrote(1) // a second request of the attempt (a redirect)
	if g := got(); len(g) != 1 || g[0] != 1 {
		t.Fatalf("use 1 signalled %v, want [1]", g)
	}
	f.gen = 3  // released and sent again
	f.wrote(1) // use 1's write ending late
	if g := got(); len(g) != 0 {
		t.Fatalf("a late write of use 1 signalled %v, want nothing", g)
	}
	f.wrote(f.watching())
	if g := got(); len(g) != 1 || g[0] != 3 {
		t.Fatalf("use 3 signalled %v, want [3]", g)
	}
	// A use whose request was never written is not signalled by the
	// next use's, and its own late write is told with its number.
	f.gen = 7
	f.wrote(5)
	f.wrote(7)
	if g := got(); len(g) != 2 || g[0] != 5 || g[1] != 7 {
		t.Fatalf("signalled %v, want [5 7]", g)
	}
}

// TestFlightNotesReachedUntilTold: while the scheduler holds nothing back
// for another event's request (told false), a write is noted in the
// flight, where heldBack reads it, and not signalled; once told, writes
// are signalled again.
func TestFlightNotesReachedUntilTold(t *testing.T) {
	ch := make(chan signal, 8)
	var told atomic.Bool
	f := &flight{signals: ch, told: &told}
	f.gen = 1
	f.wrote(f.watching())
	if len(ch) != 0 {
		t.Fatalf("signalled %d times while not told, want none", len(ch))
	}
	if got := f.reached.Load(); got != 1 {
		t.Fatalf("reached = %d, want use 1 noted", got)
	}
	told.Store(true)
	f.wrote(1) // the same use's second request: noted already
	if len(ch) != 0 {
		t.Fatalf("use 1 signalled after it was noted, want nothing")
	}
	f.gen = 3
	f.wrote(f.watching())
	if len(ch) != 1 || (<-ch).gen != 3 {
		t.Fatalf("use 3 not signalled once told")
	}
}
