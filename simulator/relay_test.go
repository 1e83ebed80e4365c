package simulator

import (
	"errors"
	"reflect"
	"testing"
)

// TestRelayKeepsRunOrder: runs going at once hand over their records in
// the order of the runs, whichever finishes first; a later run's records
// wait for the earlier runs, then follow them.
func TestRelayKeepsRunOrder(t *testing.T) {
	var got []string
	rl := NewRelay(3, func(r *Record) error { got = append(got, r.Provider+"/"+r.Kind); return nil })
	add := func(i int, provider, kind string) {
		t.Helper()
		if err := rl.Sink(i)(&Record{Provider: provider, Kind: kind}); err != nil {
			t.Fatal(err)
		}
	}
	add(2, "c", "run")
	add(1, "b", "run")
	add(0, "a", "run")
	add(2, "c", "end")
	if err := rl.Finish(2); err != nil {
		t.Fatal(err)
	}
	add(1, "b", "end")
	if err := rl.Finish(1); err != nil {
		t.Fatal(err)
	}
	if want := []string{"a/run"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("before the first run ended: %v, want %v", got, want)
	}
	add(0, "a", "end")
	if err := rl.Finish(0); err != nil {
		t.Fatal(err)
	}
	want := []string{"a/run", "a/end", "b/run", "b/end", "c/run", "c/end"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("records in order %v, want %v", got, want)
	}
}

// TestRelayStopsEveryRunOnAWriteError: once the sink fails, every run's
// next record gets the error, so all of them stop.
func TestRelayStopsEveryRunOnAWriteError(t *testing.T) {
	broken := errors.New("disk full")
	rl := NewRelay(2, func(*Record) error { return broken })
	if err := rl.Sink(0)(&Record{}); !errors.Is(err, broken) {
		t.Fatalf("run 0: %v, want the sink's error", err)
	}
	if err := rl.Sink(1)(&Record{}); !errors.Is(err, broken) {
		t.Fatalf("run 1: %v, want the sink's error", err)
	}
}
