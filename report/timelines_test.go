package report

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/retrysim/retrysim/simulator"
)

var streamStart = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// stream is the records of a run of n events, at most inFlight of them in
// flight at once: each block of inFlight events is attempted in turns
// (1 to 4 attempts, an attack beside every third event's second), some
// reaching the handler, then ends in reverse order, so events end out of
// Seq order. The last unfinished events never end, as in a stream cut
// short.
func stream(policy string, n, inFlight, unfinished int) []simulator.Record {
	id := func(seq int) string { return fmt.Sprintf("evt_%s_%d", policy, seq) }
	out := []simulator.Record{{Kind: simulator.KindRun, Policy: policy, Provider: policy, Scenario: "s", Seed: 1,
		MaxAttempt: 4, TimeoutS: 30, Events: n, Start: &streamStart}}
	at := streamStart
	for from := 0; from < n; from += inFlight {
		to := min(n, from+inFlight)
		for round := 1; round <= 4; round++ {
			for seq := from; seq < to; seq++ {
				if round > 1+seq%4 {
					continue
				}
				at = at.Add(time.Minute + time.Duration(seq)*time.Millisecond)
				reached := (seq+round)%5 == 0
				out = append(out, simulator.Record{Kind: simulator.KindAttempt, Event: id(seq), Seq: seq, N: round,
					Time: at, AtSeconds: float64(round-1) * 60.5, Outcome: simulator.Timeout, Reached: reached,
					HandlerStatus: map[bool]int{true: 500}[reached], Fault: "drop", Object: fmt.Sprintf("obj_%d", seq%7),
					LatencyMS: float64(seq%13) / 3})
				if round == 2 && seq%3 == 0 {
					out = append(out, simulator.Record{Kind: simulator.KindAttack, Event: "atk_" + id(seq), Seq: seq, N: 2,
						Time: at, Attack: "bad-signature", HandlerStatus: 401, Status: 401, Reached: true, AttackDetail: "signed with another secret"})
				}
			}
		}
		for seq := to - 1; seq >= from; seq-- {
			if seq >= n-unfinished {
				continue
			}
			out = append(out, simulator.Record{Kind: simulator.KindEvent, Event: id(seq), Seq: seq, N: 1 + seq%4,
				Fate: simulator.FateExhausted, Time: at})
		}
	}
	for i := range out {
		out[i].Policy, out[i].Provider, out[i].Scenario, out[i].Seed = policy, policy, "s", 1
	}
	return out
}

// oddities are records only a hand-made stream has: an attempt for an event
// that already ended (it begins a second timeline with the same Seq), an
// attack beside an ended event (no timeline takes it), and the end.
func oddities(policy string) []simulator.Record {
	base := simulator.Record{Policy: policy, Provider: policy, Scenario: "s", Seed: 1}
	again := base
	again.Kind, again.Event, again.Seq, again.N, again.Time, again.Outcome = simulator.KindAttempt, "again", 3, 9, streamStart.Add(72*time.Hour), simulator.Delivered
	late := base
	late.Kind, late.Event, late.Seq, late.N, late.Attack = simulator.KindAttack, "late", 6, 1, "replayed"
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
				ev = &EventTimeline{ID: r.Event, Seq: r.Seq}
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

func aggregate(t *testing.T, recs []simulator.Record, opts ...Option) *Aggregator {
	t.Helper()
	a := NewAggregator(opts...)
	t.Cleanup(func() {
		if err := a.Close(); err != nil {
			t.Error(err)
		}
	})
	for _, r := range recs {
		if err := a.Add(r); err != nil {
			t.Fatal(err)
		}
	}
	return a
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
			if r.spool == nil || len(r.closed) == 0 {
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
				if err := a.Add(r); err != nil {
					t.Fatal(err)
				}
				peakLive = max(peakLive, len(a.runs[0].live))
			}
			r := a.Runs()[0]
			if r.peakHeld != tt.wantHeld {
				t.Errorf("held at most %d records of %d events in memory, want %d", r.peakHeld, n, tt.wantHeld)
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
		if err := a.Add(r); err != nil {
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
	if err := a.Add(rec); !errors.Is(err, ErrClosed) {
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
		if err = a.Add(r); err != nil {
			break
		}
	}
	if err == nil || !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Add with a missing spool directory: err = %v, want one that says it does not exist", err)
	}
}
