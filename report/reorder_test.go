package report

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/retrysim/retrysim/policies/policytest"
	"github.com/retrysim/retrysim/scenarios/scenariotest"
	"github.com/retrysim/retrysim/simulator"
)

// TestReordersCountsPairs: a pair is an older event about an object first
// arriving strictly after a newer one; events in order, at the same time,
// or about other objects make none.
func TestReordersCountsPairs(t *testing.T) {
	o := newReorders(t.TempDir(), false)
	o.arrive(1, "cus_A", 10) // newer than 0, arrives first
	o.arrive(2, "cus_B", 11)
	o.arrive(0, "cus_A", 12) // older, after the newer one: a pair
	o.arrive(3, "cus_C", 20)
	o.arrive(4, "cus_C", 20) // the same time: no pair
	o.arrive(5, "cus_C", 21) // in order: no pair
	o.arrive(6, "", 1)       // about no object: pairs with nothing
	o.arrive(7, "cus_E", 5)
	o.arrive(7, "cus_E", 3) // a corrupt stream's event arriving twice: not a pair with itself
	o.arrive(-64, "cus_D", 30)
	o.arrive(math.MaxInt, "cus_D", 29) // a corrupt stream's numbers still order
	if got, err := o.count(); got != 2 || err != nil {
		t.Fatalf("counted %d pairs (%v), want 2", got, err)
	}
}

// TestReordersCountsEveryPair: against a count of every pair, on streams of
// first arrivals in time order, large enough that every part goes to the
// file, with most objects' events far apart (as under an outage) and one
// object with thousands of events (counted in n log n, not n²).
func TestReordersCountsEveryPair(t *testing.T) {
	for seed := range uint64(3) {
		rng := rand.New(rand.NewPCG(seed, 29))
		type arrival struct {
			seq, object int
			at          int64
		}
		var arrivals []arrival
		for seq := range 200_000 {
			object := rng.IntN(50_000)
			if seq%40 == 0 {
				object = -1 // one busy object
			}
			arrivals = append(arrivals, arrival{seq: seq, object: object, at: int64(seq) + int64(rng.IntN(400_000))})
		}
		slices.SortStableFunc(arrivals, func(a, b arrival) int { return cmp.Compare(a.at, b.at) })
		want := 0
		byObject := map[int][]arrival{}
		for _, a := range arrivals {
			for _, b := range byObject[a.object] {
				if b.seq > a.seq && b.at < a.at {
					want++
				}
			}
			byObject[a.object] = append(byObject[a.object], a)
		}
		o := newReorders(t.TempDir(), false)
		for _, a := range arrivals {
			o.arrive(a.seq, fmt.Sprintf("cus_%d", a.object), a.at)
		}
		if o.f == nil || o.kept != nil {
			t.Fatalf("seed %d: %d arrivals went to no file", seed, len(arrivals))
		}
		buffered := 0
		for _, p := range o.parts {
			buffered += len(p)
		}
		if buffered >= reorderParts*reorderBlockSize {
			t.Fatalf("seed %d: %d bytes in memory, want less than the parts' %d", seed, buffered, reorderParts*reorderBlockSize)
		}
		got, err := o.count()
		if got != want || err != nil {
			t.Fatalf("seed %d: %d pairs counted (%v), %d in the stream", seed, got, err, want)
		}
		o.close()
	}
}

// TestReordersWithoutAFile: where no temporary file can be made, the
// arrivals stay in memory and are counted all the same.
func TestReordersWithoutAFile(t *testing.T) {
	o := newReorders(filepath.Join(t.TempDir(), "no", "such", "dir"), false)
	for seq := 300_000; seq > 0; seq-- { // every pair of one object reordered
		o.arrive(seq, fmt.Sprintf("customer-of-a-long-name-%d", seq%1000), int64(300_000-seq))
	}
	if o.f != nil || len(o.kept) == 0 {
		t.Fatalf("file %v, %d blocks kept in memory; want no file and the blocks in memory", o.f, len(o.kept))
	}
	want := 1000 * (300 * 299 / 2) // 1,000 objects of 300 events, each pair reordered
	if got, err := o.count(); got != want || err != nil {
		t.Fatalf("counted %d pairs (%v), want %d", got, err, want)
	}
}

// TestReordersCountsOnce: concluding twice counts once; an arrival noted
// after a count is in the next one; once closed, arrivals in the file can
// no longer be counted, and the count says so rather than undercount.
func TestReordersCountsOnce(t *testing.T) {
	o := newReorders(t.TempDir(), false)
	o.arrive(2, "cus_A", 1)
	o.arrive(1, "cus_A", 2)
	if a, _ := o.count(); a != 1 {
		t.Fatalf("first count %d, want 1", a)
	}
	o.pairs = 7 // a recount would put it back
	if a, _ := o.count(); a != 7 {
		t.Fatalf("a second count with nothing new counted again (%d)", a)
	}
	o.arrive(0, "cus_A", 3)
	if a, _ := o.count(); a != 3 {
		t.Fatalf("count after a new arrival %d, want 3", a)
	}
	for seq := range 200_000 {
		o.arrive(seq+10, fmt.Sprintf("customer-of-a-long-name-%d", seq), int64(seq))
	}
	if a, _ := o.count(); a != 3 {
		t.Fatalf("count after the run's arrivals %d, want 3", a)
	}
	o.shed() // the run ended: its buffers go to the file
	for p, b := range o.parts {
		if b != nil {
			t.Fatalf("part %d keeps %d bytes in memory after shed", p, cap(b))
		}
	}
	if a, _ := o.count(); a != 3 {
		t.Fatalf("count after shed %d, want 3", a)
	}
	o.close()
	o.arrive(1, "late", 1) // after close: kept in memory, no second file
	if o.f != nil {
		t.Fatal("an arrival after close made a file again")
	}
	if _, err := o.count(); !errors.Is(err, ErrClosed) {
		t.Fatalf("counting after close: %v, want ErrClosed", err)
	}
}

// TestReordersInMemory: a stream that is in memory already (Summarize)
// gets no file, however many arrivals it has.
func TestReordersInMemory(t *testing.T) {
	o := newReorders(t.TempDir(), true)
	for seq := range 300_000 {
		o.arrive(seq, fmt.Sprintf("customer-of-a-long-name-%d", seq%1000), int64(-seq))
	}
	if o.f != nil || len(o.kept) == 0 {
		t.Fatalf("file %v, %d blocks in memory; want no file", o.f, len(o.kept))
	}
	if got, _ := o.count(); got != 1000*(300*299/2) {
		t.Fatalf("counted %d pairs, want %d", got, 1000*(300*299/2))
	}
}

// TestReorderedPairsOfARun: the count a run's report gives is the count
// of every pair in its records, for a scenario whose provider latency
// starts an older event's first attempt after a newer one arrived and
// ended (the count once forgot an object at that point, and gave 0).
func TestReorderedPairsOfARun(t *testing.T) {
	pol := policytest.Lookup(t, "github")
	sc := scenariotest.Lookup(t, "github-2026-03-18")
	type first struct {
		seq int
		at  int64
	}
	byObject := map[string][]first{}
	seen := map[int]bool{}
	agg := NewAggregator(WithSpoolDir(t.TempDir()))
	defer agg.Close()
	sink := func(rec *simulator.Record) error {
		if rec.Kind == simulator.KindAttempt && rec.Reached && !seen[rec.Seq] && rec.Object != "" {
			seen[rec.Seq] = true
			byObject[rec.Object] = append(byObject[rec.Object], first{rec.Seq, rec.Time.UnixNano()})
		}
		return agg.Add(rec)
	}
	if _, err := simulator.Run(context.Background(), simulator.Config{Policy: pol, Scenario: sc, DryRun: true, Events: 400, Over: 2 * time.Minute, Sink: sink}); err != nil {
		t.Fatal(err)
	}
	want := 0
	for _, fs := range byObject {
		for _, a := range fs {
			for _, b := range fs {
				if a.seq < b.seq && b.at < a.at {
					want++
				}
			}
		}
	}
	if want == 0 {
		t.Fatal("the run has no reordered pair to count: the test tests nothing")
	}
	if got := agg.Runs()[0].ReorderedPairs; got != want {
		t.Fatalf("the report counts %d reordered pairs, the records hold %d", got, want)
	}
}

// TestReordersObjectsOfOnePart: objects whose arrivals share a part (and
// a hash's low bits) are still apart: their events pair only with their
// own.
func TestReordersObjectsOfOnePart(t *testing.T) {
	var names []string
	for i := 0; len(names) < 2; i++ {
		name := fmt.Sprintf("obj-%d", i)
		if objectHash(name)%reorderParts == 5 {
			names = append(names, name)
		}
	}
	o := newReorders(t.TempDir(), false)
	o.arrive(1, names[0], 1)
	o.arrive(0, names[1], 2) // older than names[0]'s, but another object
	if got, _ := o.count(); got != 0 {
		t.Fatalf("%d pairs between two objects of one part, want 0", got)
	}
}

func TestInversions(t *testing.T) {
	for _, tc := range []struct {
		t    []int64
		want int
	}{
		{nil, 0},
		{[]int64{1}, 0},
		{[]int64{1, 2, 3}, 0},
		{[]int64{3, 2, 1}, 3},
		{[]int64{2, 2, 2}, 0},
		{[]int64{2, 1, 2, 1}, 3},
	} {
		s := append([]int64(nil), tc.t...)
		if got := inversions(s, make([]int64, len(s))); got != tc.want {
			t.Errorf("inversions(%v) = %d, want %d", tc.t, got, tc.want)
		}
	}
}

// A run whose reorder count cannot be read back says so, in the text and
// in the JSON, rather than print a count too low.
func TestReorderedUncountedIsSaid(t *testing.T) {
	pol := policytest.Lookup(t, "stripe")
	agg := NewAggregator(WithSpoolDir(t.TempDir()))
	if _, err := simulator.Run(context.Background(), simulator.Config{Policy: pol, DryRun: true, Events: 5, Sink: agg.Add}); err != nil {
		t.Fatal(err)
	}
	run := agg.runs[0]
	for seq := range 300_000 { // enough to go to the file
		run.reorder.arrive(seq+10, fmt.Sprintf("customer-of-a-long-name-%d", seq), int64(seq))
	}
	agg.Close() // the file goes before the count
	runs := agg.Runs()
	if runs[0].ReorderedPairs != ReorderedUncounted {
		t.Fatalf("ReorderedPairs %d, want ReorderedUncounted", runs[0].ReorderedPairs)
	}
	var text, js strings.Builder
	if err := Write(&text, &Report{Runs: runs}, FormatText); err != nil {
		t.Fatal(err)
	}
	if err := Write(&js, &Report{Runs: runs}, FormatJSON); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "order: not counted") || !strings.Contains(js.String(), `"reordered_pairs": -1`) {
		t.Errorf("the text or the JSON does not say the pairs were not counted:\n%s\n%s", text.String(), js.String())
	}
}
