package benchref

import (
	"testing"
	"time"
)

func TestPairsMedian(t *testing.T) {
	var p Pairs
	if p.Median() != 0 {
		t.Fatal("no pairs: want median 0")
	}
	p.AddTimes(2*time.Second, 4*time.Second) // 0.5
	p.AddTimes(0, time.Second)               // left out
	p.Add(3, 3)                              // 1
	p.Add(9, 10)                             // 0.9
	if got := p.Median(); got != 0.9 {
		t.Fatalf("median %v, want 0.9", got)
	}
	p.Add(1, 1) // 0.5 0.9 1 1
	if got := p.Median(); got != 0.95 {
		t.Fatalf("median %v, want 0.95", got)
	}
}

func TestBareHeapPopsEveryAttempt(t *testing.T) {
	delays := []time.Duration{time.Minute, time.Hour, 2 * time.Hour}
	if got := BareHeap(delays, 1000, time.Minute, time.Unix(0, 0)); got != 4000 {
		t.Fatalf("popped %d, want 4000", got)
	}
}
