package main

import (
	"os"
	"runtime/debug"
)

// heapFloor is the least heap the garbage collector paces itself by. Go
// collects when the heap has grown by GOGC (100) percent of what the last
// collection left live, but never sooner than at 4 MiB. A run's live heap
// is small (about 2 MiB for 20,000 Stripe attempts, whose requests and
// bodies are garbage as soon as they are answered) while it allocates about
// 8 KiB an attempt, so at Go's default the collector would run every
// 300 attempts or so: 67 collections in that run, 7 % of its CPU by the
// runtime's own count (GODEBUG=gctrace=1), on cores it shares with the
// handler under test.
//
// An allocation of heapFloor that is never written counts as live heap
// and so moves every collection's goal up by twice its size, while
// its pages are never touched, so it costs no resident memory itself: the
// process then holds up to heapFloor more garbage between collections
// than it would, and collects once every heapFloor (plus the live heap) of
// allocation.
//
// A run whose own live heap is large (ten million model events against a
// black hole, all in flight for days; a JSON report of a million events)
// is paced by gcPercent instead of Go's 100: the heap then peaks at about
// one and a half times what is live, not twice, for a collection every
// half of the live heap allocated rather than every whole (most of such a
// heap is pointer-free chunks, which a collection does not scan). The floor
// is raised with it, so that a small run collects no more often than at
// 100 percent and a 32 MiB floor: (0 + 48) × 1.5 = 72 MiB against
// (0 + 32) × 2 = 64.
const (
	heapFloor = 48 << 20
	gcPercent = 50
)

// newHeapFloor paces the collector (gcPercent) and returns the allocation
// that sets the heap floor, to be kept alive for as long as the command
// runs; nil, with the pace left alone, when the user paces the collector
// with GOGC or GOMEMLIMIT, whose choice is kept.
func newHeapFloor() []byte {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return nil
	}
	debug.SetGCPercent(gcPercent)
	return make([]byte, heapFloor)
}
