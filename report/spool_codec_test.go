package report

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/retrysim/retrysim/simulator"
)

// fillAll sets every field of r, those of its embedded structs too, to a
// value that is not its zero, different for each field.
func fillAll(t *testing.T, r *simulator.Record) {
	t.Helper()
	for i, f := range reflect.VisibleFields(reflect.TypeFor[simulator.Record]()) {
		if !f.Anonymous {
			fillField(t, reflect.ValueOf(r).Elem().FieldByIndex(f.Index), f.Name, i)
		}
	}
}

// fillField sets f, the record's field name, to a value that is not its
// zero, different for each field i; it fails on a kind of field the spool
// does not know.
func fillField(t *testing.T, f reflect.Value, name string, i int) {
	t.Helper()
	switch v := f.Addr().Interface().(type) {
	case *time.Duration:
		*v = time.Duration(i)*time.Hour + 123456789
	case *time.Time:
		*v = time.Date(2026, 1, 1, 0, 0, i, 123456789, time.UTC)
	case **time.Time:
		tm := time.Date(2025, 12, 31, 23, 59, i, 5, time.UTC)
		*v = &tm
	case *[]time.Duration:
		*v = []time.Duration{time.Duration(i) * time.Second / 3, 0, 1 << 62, -2500 * time.Millisecond}
	case *[][2]time.Duration:
		*v = [][2]time.Duration{{time.Duration(i) * time.Second / 3, 600 * time.Second}, {0, 1 << 62}}
	default:
		switch f.Kind() {
		case reflect.String:
			f.SetString("v-" + name)
		case reflect.Int:
			f.SetInt(int64(-1000*i - 7))
		case reflect.Uint64:
			f.SetUint(1<<63 + uint64(i))
		case reflect.Float64:
			f.SetFloat(float64(i) + 1.0/3)
		case reflect.Bool:
			f.SetBool(true)
		default:
			t.Fatalf("simulator.Record.%s is a %s: teach the spool's encoding (spool_codec.go) and this test about it", name, f.Type())
		}
	}
}

// roundTrip puts ev through a spool, its attempts then its attacks, and
// reads it back.
func roundTrip(t *testing.T, ev *EventTimeline) *EventTimeline {
	t.Helper()
	s := &spool{dir: t.TempDir()}
	defer s.close()
	tail := spoolTail{id: ev.ID} // as hold starts an event never attempted
	for i := range ev.Attempts {
		if err := s.add(&tail, ev.Seq, chunkAttempt, &ev.Attempts[i]); err != nil {
			t.Fatal(err)
		}
	}
	for i := range ev.Attacks {
		if err := s.add(&tail, ev.Seq, chunkAttack, &ev.Attacks[i]); err != nil {
			t.Fatal(err)
		}
	}
	if ev.Fate != "" {
		if _, err := s.end(&tail, ev.Seq, ev.Fate, ev.Due); err != nil {
			t.Fatal(err)
		}
	}
	got, err := s.get(ev.Seq, tail.last)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// Every field of a record comes back from the spool: a field added to
// simulator.Record and not to the spool's encoding fails here.
func TestSpoolCodecKeepsEveryField(t *testing.T) {
	var all simulator.Record
	fillAll(t, &all)
	t.Run("all fields", func(t *testing.T) {
		ev := &EventTimeline{ID: all.EventID, Seq: 42, Fate: "delivered", Attempts: []simulator.Record{all, all}, Attacks: []simulator.Record{all}}
		if got := roundTrip(t, ev); !reflect.DeepEqual(got, ev) {
			t.Errorf("round trip changed the timeline:\n got %+v\nwant %+v", got, ev)
		}
	})
	// An event never attempted keeps when it was due, which a chart marks.
	t.Run("never attempted", func(t *testing.T) {
		due := time.Date(2026, 1, 1, 0, 10, 15, 275798570, time.UTC)
		ev := &EventTimeline{ID: "evt_dropped", Seq: 6, Fate: simulator.FateDropped, Due: due}
		if got := roundTrip(t, ev); !reflect.DeepEqual(got, ev) {
			t.Errorf("round trip changed the timeline:\n got %+v\nwant %+v", got, ev)
		}
	})
	for i, f := range reflect.VisibleFields(reflect.TypeFor[simulator.Record]()) {
		if f.Anonymous {
			continue
		}
		t.Run(f.Name+" alone", func(t *testing.T) {
			var r simulator.Record
			fillField(t, reflect.ValueOf(&r).Elem().FieldByIndex(f.Index), f.Name, i)
			ev := &EventTimeline{Seq: -3, Attempts: []simulator.Record{{}, r, all, r}}
			if got := roundTrip(t, ev); !reflect.DeepEqual(got, ev) {
				t.Errorf("round trip changed the record:\n got %+v\nwant %+v", got.Attempts[1], r)
			}
		})
	}
}

// Times keep their instant and their zone, whatever the zone.
func TestSpoolCodecTimeZones(t *testing.T) {
	at := time.Date(2026, 3, 1, 12, 30, 0, 42, time.UTC)
	tests := []struct {
		name string
		loc  *time.Location
	}{
		{"utc", time.UTC},
		{"local", time.Local},
		{"fixed", time.FixedZone("CEST", 2*3600)},
		{"unnamed fixed", time.FixedZone("", -90*60)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want := at.In(tt.loc)
			before := at.Add(-72 * time.Hour).In(tt.loc)
			ev := &EventTimeline{Attempts: []simulator.Record{{Time: before}, {Time: want}, {}}}
			got := roundTrip(t, ev)
			for i, w := range []time.Time{before, want, {}} {
				g := got.Attempts[i].Time
				gn, go_ := g.Zone()
				wn, wo := w.Zone()
				if !g.Equal(w) || gn != wn || go_ != wo || g.IsZero() != w.IsZero() {
					t.Errorf("attempt %d: time %v came back as %v", i, w, g)
				}
				if g.Format(time.RFC3339Nano) != w.Format(time.RFC3339Nano) {
					t.Errorf("attempt %d: formats as %s, want %s", i, g.Format(time.RFC3339Nano), w.Format(time.RFC3339Nano))
				}
			}
		})
	}
}

// More distinct strings than the spool's table holds still come back
// whole.
func TestSpoolCodecManyStrings(t *testing.T) {
	ev := &EventTimeline{ID: "evt", Fate: "exhausted"}
	for i := range 3 * maxTableStrings {
		ev.Attempts = append(ev.Attempts, simulator.Record{Kind: "attempt", EventID: "evt", Attempt: i + 1, Error: fmt.Sprintf("error %d", i%(2*maxTableStrings))})
	}
	ev.Attempts = append(ev.Attempts, simulator.Record{Error: strings.Repeat("long ", maxTableLen)})
	if got := roundTrip(t, ev); !reflect.DeepEqual(got, ev) {
		t.Error("round trip changed a timeline with many strings")
	}
}

// A cut or damaged record is an error, never a panic or a wrong answer
// passed off as right.
func TestSpoolCodecCorrupt(t *testing.T) {
	var all simulator.Record
	fillAll(t, &all)
	var strs spoolStrings
	e := spoolEncoder{strs: &strs}
	e.record(&all)
	for n := range len(e.b) {
		d := spoolDecoder{b: e.b[:n], strs: &strs}
		var r simulator.Record
		if d.record(&r); !errors.Is(d.err, errSpoolCorrupt) {
			t.Errorf("cut to %d of %d bytes: err = %v, want errSpoolCorrupt", n, len(e.b), d.err)
		}
	}
	d := spoolDecoder{b: []byte{0, strTable + 5}, strs: &strs}
	var r simulator.Record
	if d.record(&r); !errors.Is(d.err, errSpoolCorrupt) {
		t.Errorf("reference to an unknown string: err = %v, want errSpoolCorrupt", d.err)
	}
	s := &spool{dir: t.TempDir()}
	defer s.close()
	var tail spoolTail
	if err := s.add(&tail, 0, chunkAttempt, &all); err != nil {
		t.Fatal(err)
	}
	for _, last := range []int64{tail.last + 1, tail.last + 1000, -5} {
		if _, err := s.get(0, last); !errors.Is(err, errSpoolCorrupt) {
			t.Errorf("reading a chain from offset %d: err = %v, want errSpoolCorrupt", last-1, err)
		}
	}
}
