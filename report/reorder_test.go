package report

import "testing"

// TestReordersCountsAndForgets: a pair is counted when an older event about
// an object first arrives after a newer one, and nothing is kept once every
// event has arrived or ended.
func TestReordersCountsAndForgets(t *testing.T) {
	o := newReorders()
	o.seen(0)
	o.seen(1)
	o.seen(2)
	o.arrive(1, "cus_A", 10) // newer than 0, arrives first
	o.arrive(2, "cus_B", 11)
	if len(o.objects) != 2 {
		t.Fatalf("kept %d objects while event 0 may still arrive, want 2", len(o.objects))
	}
	o.arrive(0, "cus_A", 12) // older, after the newer one: a pair
	if o.pairs != 1 {
		t.Fatalf("%d pairs, want 1", o.pairs)
	}
	if len(o.objects) != 0 || o.low != 3 {
		t.Fatalf("kept %d objects (low %d) after every event arrived, want none", len(o.objects), o.low)
	}
	// An event that ends without arriving lets the newer ones go too.
	o.seen(3)
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

// TestReordersIgnoresWildSequenceNumbers: a stream no run wrote, with a
// sequence number far beyond any run's events or below zero, is counted but
// not followed, rather than taking room for every number in between.
func TestReordersIgnoresWildSequenceNumbers(t *testing.T) {
	o := newReorders()
	o.arrive(1<<50, "cus_A", 10)
	o.resolve(1 << 50)
	o.arrive(-5, "cus_A", 11)
	if len(o.open) != 0 {
		t.Fatalf("followed %d sequence numbers, want none", len(o.open))
	}
	if o.pairs != 1 {
		t.Fatalf("%d pairs, want 1", o.pairs)
	}
}
