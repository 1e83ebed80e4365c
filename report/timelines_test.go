package report

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/retrysim/retrysim/simulator"
)

// oddities are records only a hand-made stream has: an attempt for an event
// that already ended (it begins a second timeline with the same Seq), an
// attack beside an ended event (no timeline takes it), and the end.
func oddities(policy string) []simulator.Record {
	base := simulator.Record{Policy: policy, Provider: policy, Scenario: "s", Seed: 1}
	again := base
	again.Kind, again.EventID, again.Seq, again.Attempt, again.Time, again.Outcome = simulator.KindAttempt, "again", 3, 9, streamStart.Add(72*time.Hour), simulator.Delivered
	late := base
	late.Kind, late.EventID, late.Seq, late.Attempt, late.Attack = simulator.KindAttack, "late", 6, 1, "replayed"
	end := base
	end.Kind, end.Time, end.Interrupted = simulator.KindEnd, streamStart.Add(73*time.Hour), true
	return []simulator.Record{again, late, end}
}

// referenceTimelines is what the per-event timeline must hold, worked out
// the plain way: every timeline in memory, sorted by Seq at the end.
func referenceTimelines(recs []simulator.Record) []*EventTimeline {
	var all []*EventTimeline
	live := map[int]*EventTimeline{}
	for _, r := range recs {
		switch r.Kind {
		case simulator.KindAttempt:
			ev := live[r.Seq]
			if ev == nil {
				ev = &EventTimeline{ID: r.EventID, Seq: r.Seq}
				live[r.Seq] = ev
				all = append(all, ev)
			}
			ev.Attempts = append(ev.Attempts, r)
		case simulator.KindAttack:
			if ev := live[r.Seq]; ev != nil {
				ev.Attacks = append(ev.Attacks, r)
			}
		case simulator.KindEvent:
			if ev := live[r.Seq]; ev != nil {
				ev.Fate = r.Fate
				delete(live, r.Seq)
			}
		}
	}
	slices.SortStableFunc(all, bySeq)
	return all
}

// interleave mixes two runs' streams record by record, as a results file
// of several runs may.
func interleave(a, b []simulator.Record) []simulator.Record {
	var out []simulator.Record
	for i := 0; i < max(len(a), len(b)); i++ {
		if i < len(a) {
			out = append(out, a[i])
		}
		if i < len(b) {
			out = append(out, b[i])
		}
	}
	return out
}

func collect(t *testing.T, r *Summary) []*EventTimeline {
	t.Helper()
	var out []*EventTimeline
	for ev, err := range r.Timelines() {
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, ev)
	}
	if len(out) != r.TimelineCount() {
		t.Errorf("Timelines yielded %d timelines, TimelineCount says %d", len(out), r.TimelineCount())
	}
	return out
}

// Keeping every event, the timelines read back from the spool are those
// worked out in memory, in the same order, and every report says the same.
func TestSpooledTimelinesMatchMemory(t *testing.T) {
	streams := map[string][]simulator.Record{
		"a": append(stream("a", 300, 16, 5), oddities("a")...),
		"b": append(stream("b", 200, 7, 0), oddities("b")...),
	}
	recs := interleave(streams["a"], streams["b"])
	spooled := aggregate(t, recs, WithTimeline(-1), WithSpoolDir(t.TempDir()))
	inMem := aggregate(t, recs, WithTimeline(-1), inMemory())
	for i, r := range spooled.Runs() {
		t.Run(r.Policy, func(t *testing.T) {
			if r.stored.spool == nil || r.stored.closed.len() == 0 {
				t.Fatal("nothing was spooled")
			}
			want := referenceTimelines(streams[r.Policy])
			if got := collect(t, r); !reflect.DeepEqual(got, want) {
				t.Errorf("spooled timelines differ from the reference (%d and %d events)", len(got), len(want))
				for k := range min(len(got), len(want)) {
					if !reflect.DeepEqual(got[k], want[k]) {
						t.Fatalf("first difference at %d:\n got %+v\nwant %+v", k, got[k], want[k])
					}
				}
			}
			if got := collect(t, inMem.Runs()[i]); !reflect.DeepEqual(got, want) {
				t.Errorf("in-memory timelines differ from the reference")
			}
		})
	}
	for _, format := range []string{FormatJSON, FormatCSV, FormatText, FormatMarkdown} {
		t.Run(format, func(t *testing.T) {
			var got, want bytes.Buffer
			if err := Write(&got, &Report{Runs: spooled.Runs(), Timeline: DefaultTimeline}, format); err != nil {
				t.Fatal(err)
			}
			if err := Write(&want, &Report{Runs: inMem.Runs(), Timeline: DefaultTimeline}, format); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got.Bytes(), want.Bytes()) {
				t.Errorf("the %s report from the spool differs from the one from memory", format)
			}
		})
	}
}

// Keeping every event's timeline, the aggregator holds no attempt in
// memory however many events it is fed, and follows only the events in
// flight: what lets a million-event JSON report finish.
func TestSpoolHoldsOnlyEventsInFlight(t *testing.T) {
	const n, inFlight = 3000, 8
	recs := stream("p", n, inFlight, 0)
	attempts := 0
	for _, r := range recs {
		if r.Kind == simulator.KindAttempt || r.Kind == simulator.KindAttack {
			attempts++
		}
	}
	tests := []struct {
		name        string
		opts        []Option
		wantHeld    int
		wantSpooled bool
	}{
		{"spooled", []Option{WithTimeline(-1), WithSpoolDir(t.TempDir())}, 0, true},
		// The counter sees what holding every timeline in memory holds.
		{"in memory", []Option{WithTimeline(-1), inMemory()}, attempts, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := NewAggregator(tt.opts...)
			defer a.Close()
			peakLive := 0
			for _, r := range recs {
				if err := a.Add(&r); err != nil {
					t.Fatal(err)
				}
				peakLive = max(peakLive, a.runs[0].live.len())
			}
			r := a.Runs()[0]
			if held := a.runs[0].peakHeld; held != tt.wantHeld {
				t.Errorf("held at most %d records of %d events in memory, want %d", held, n, tt.wantHeld)
			}
			if peakLive > inFlight {
				t.Errorf("followed %d events at once, want at most the %d in flight", peakLive, inFlight)
			}
			if got := r.TimelineCount(); got != n {
				t.Errorf("TimelineCount = %d, want %d", got, n)
			}
			if (a.spool != nil && a.spool.size > 0) != tt.wantSpooled {
				t.Errorf("spooled = %v, want %v", a.spool != nil && a.spool.size > 0, tt.wantSpooled)
			}
		})
	}
}

// Close removes the spool file, and the timelines are gone after it.
func TestCloseRemovesSpool(t *testing.T) {
	dir := t.TempDir()
	a := NewAggregator(WithTimeline(-1), WithSpoolDir(dir))
	for _, r := range stream("p", 50, 5, 0) {
		if err := a.Add(&r); err != nil {
			t.Fatal(err)
		}
	}
	r := a.Runs()[0]
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	if left, _ := os.ReadDir(dir); len(left) > 0 {
		t.Errorf("left behind in the spool directory: %v", left)
	}
	for _, err := range r.Timelines() {
		if !errors.Is(err, ErrClosed) {
			t.Errorf("Timelines after Close: err = %v, want ErrClosed", err)
		}
		break
	}
	rec := stream("p", 1, 1, 0)[1]
	if err := a.Add(&rec); !errors.Is(err, ErrClosed) {
		t.Errorf("Add after Close: err = %v, want ErrClosed", err)
	}
	if err := a.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
}

// A spool that cannot be made is an error from Add, not a report that
// silently lacks its events.
func TestSpoolDirMissing(t *testing.T) {
	a := NewAggregator(WithTimeline(-1), WithSpoolDir(filepath.Join(t.TempDir(), "gone")))
	defer a.Close()
	var err error
	for _, r := range stream("p", 3, 3, 0) {
		if err = a.Add(&r); err != nil {
			break
		}
	}
	if err == nil || !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Add with a missing spool directory: err = %v, want one that says it does not exist", err)
	}
}
