package report

import (
	"encoding/binary"
	"errors"
	"math"
	"math/bits"
	"time"

	"github.com/retrysim/retrysim/simulator"
)

// The spool's encoding of one event's timeline: varints, floats with their
// bytes reversed (so round numbers are short varints), and strings said once
// per event and then referred to by number, since an event's attempts repeat
// the run's names, the event's id and most outcomes. A black-hole attempt
// takes about 35 bytes.

// errSpoolCorrupt is returned, wrapped, when a spooled timeline does not
// decode: the spool file was changed or cut under the report.
var errSpoolCorrupt = errors.New("report: spooled timeline is corrupt")

// maxSpoolStrings is how many distinct strings one event's table remembers;
// past it, new strings are written out in full each time.
const maxSpoolStrings = 64

// String codes: 0 is "", 1 a new string (length and bytes follow), k ≥ 2
// the (k-2)th string of the event's table.
const (
	strEmpty = 0
	strNew   = 1
	strRef   = 2
)

// Time codes.
const (
	timeZero  = 0
	timeUTC   = 1
	timeLocal = 2
	timeFixed = 3 // zone name and offset follow
)

// Record flags: the record's bools, and which groups of rarely set fields
// follow.
const (
	flagReached = 1 << iota
	flagManual
	flagProbe
	flagInterrupted
	flagEffectsKnown
	flagAttack   // the attack fields follow
	flagFate     // Fate and Effects follow
	flagRunBlock // the run and end fields follow
)

// spoolEncoder appends one event's timeline to b.
type spoolEncoder struct {
	b       []byte
	strs    []string
	lastSec int64
}

func (e *spoolEncoder) reset() {
	e.b, e.strs, e.lastSec = e.b[:0], e.strs[:0], 0
}

func (e *spoolEncoder) uint(v uint64) { e.b = binary.AppendUvarint(e.b, v) }
func (e *spoolEncoder) int(v int64)   { e.b = binary.AppendVarint(e.b, v) }
func (e *spoolEncoder) float(f float64) {
	e.uint(bits.ReverseBytes64(math.Float64bits(f)))
}

func (e *spoolEncoder) str(s string) {
	if s == "" {
		e.uint(strEmpty)
		return
	}
	for i, t := range e.strs {
		if t == s {
			e.uint(uint64(strRef + i))
			return
		}
	}
	e.uint(strNew)
	e.uint(uint64(len(s)))
	e.b = append(e.b, s...)
	if len(e.strs) < maxSpoolStrings {
		e.strs = append(e.strs, s)
	}
}

func (e *spoolEncoder) time(t time.Time) {
	switch loc := t.Location(); {
	case t.IsZero() && loc == time.UTC:
		e.uint(timeZero)
		return
	case loc == time.UTC:
		e.uint(timeUTC)
	case loc == time.Local:
		e.uint(timeLocal)
	default:
		name, off := t.Zone()
		e.uint(timeFixed)
		e.str(name)
		e.int(int64(off))
	}
	sec := t.Unix()
	e.int(sec - e.lastSec)
	e.lastSec = sec
	e.uint(uint64(t.Nanosecond()))
}

func (e *spoolEncoder) timePtr(t *time.Time) {
	if t == nil {
		e.uint(0)
		return
	}
	e.uint(1)
	e.time(*t)
}

// timeline encodes ev.
func (e *spoolEncoder) timeline(ev *EventTimeline) {
	e.str(ev.ID)
	e.int(int64(ev.Seq))
	e.str(ev.Fate)
	e.uint(uint64(len(ev.Attempts)))
	for i := range ev.Attempts {
		e.record(&ev.Attempts[i])
	}
	e.uint(uint64(len(ev.Attacks)))
	for i := range ev.Attacks {
		e.record(&ev.Attacks[i])
	}
}

// record encodes every field of r: a field added to simulator.Record must be
// added here and in spoolDecoder.record (the round-trip test says so).
func (e *spoolEncoder) record(r *simulator.Record) {
	var flags uint64
	set := func(on bool, bit uint64) {
		if on {
			flags |= bit
		}
	}
	set(r.Reached, flagReached)
	set(r.Manual, flagManual)
	set(r.Probe, flagProbe)
	set(r.Interrupted, flagInterrupted)
	set(r.EffectsKnown, flagEffectsKnown)
	set(hasAttackFields(r), flagAttack)
	set(r.Fate != "" || r.Effects != 0, flagFate)
	set(hasRunFields(r), flagRunBlock)
	e.uint(flags)
	e.str(r.Kind)
	e.str(r.Provider)
	e.str(r.Policy)
	e.str(r.Scenario)
	e.uint(r.Seed)
	e.str(r.Event)
	e.int(int64(r.Seq))
	e.int(int64(r.N))
	e.time(r.Time)
	e.float(r.AtSeconds)
	e.str(string(r.Outcome))
	e.int(int64(r.Status))
	e.int(int64(r.HandlerStatus))
	e.float(r.LatencyMS)
	e.float(r.AddedLatencyMS)
	e.str(r.Fault)
	e.str(r.Object)
	e.int(int64(r.Copy))
	e.str(r.Error)
	e.str(r.Signal)
	if flags&flagAttack != 0 {
		e.str(r.Attack)
		e.str(r.AttackChange)
		e.str(r.AttackDetail)
		e.int(int64(r.ProbeExpect))
		e.str(r.NotApplicable)
		e.str(r.Undetectable)
		e.int(int64(r.OriginalStatus))
	}
	if flags&flagFate != 0 {
		e.str(r.Fate)
		e.int(int64(r.Effects))
	}
	if flags&flagRunBlock != 0 {
		e.str(r.Target)
		e.int(int64(r.Events))
		e.str(r.Summary)
		e.int(int64(r.MaxAttempt))
		e.float(r.WindowS)
		e.float(r.TimeoutS)
		e.float(r.ManualS)
		e.int(int64(r.DisableN))
		e.float(r.DisableS)
		e.str(r.DisableRule)
		e.str(r.DedupField)
		if r.ScheduleS == nil {
			e.uint(0)
		} else {
			e.uint(uint64(len(r.ScheduleS)) + 1)
			for _, s := range r.ScheduleS {
				e.float(s)
			}
		}
		e.timePtr(r.Start)
		e.timePtr(r.DisabledAt)
		e.str(r.DisabledBy)
		e.str(r.EffectsSource)
	}
}

// hasAttackFields reports whether any attack field but Probe is set.
func hasAttackFields(r *simulator.Record) bool {
	return r.Attack != "" || r.AttackChange != "" || r.AttackDetail != "" || r.ProbeExpect != 0 ||
		r.NotApplicable != "" || r.Undetectable != "" || r.OriginalStatus != 0
}

// hasRunFields reports whether any field of run and end records but the
// bools is set.
func hasRunFields(r *simulator.Record) bool {
	return r.Target != "" || r.Events != 0 || r.Summary != "" || r.MaxAttempt != 0 || r.WindowS != 0 ||
		r.TimeoutS != 0 || r.ManualS != 0 || r.DisableN != 0 || r.DisableS != 0 || r.DisableRule != "" ||
		r.DedupField != "" || r.ScheduleS != nil || r.Start != nil || r.DisabledAt != nil ||
		r.DisabledBy != "" || r.EffectsSource != ""
}

// spoolDecoder reads one event's timeline back; the first problem sticks in
// err and every later read returns zero.
type spoolDecoder struct {
	b       []byte
	strs    []string
	lastSec int64
	err     error
}

func (d *spoolDecoder) fail() {
	if d.err == nil {
		d.err = errSpoolCorrupt
	}
	d.b = nil
}

func (d *spoolDecoder) uint() uint64 {
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.fail()
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *spoolDecoder) int() int64 {
	v, n := binary.Varint(d.b)
	if n <= 0 {
		d.fail()
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *spoolDecoder) float() float64 {
	return math.Float64frombits(bits.ReverseBytes64(d.uint()))
}

func (d *spoolDecoder) str() string {
	switch c := d.uint(); {
	case c == strEmpty:
		return ""
	case c == strNew:
		n := d.uint()
		if n > uint64(len(d.b)) {
			d.fail()
			return ""
		}
		s := string(d.b[:n])
		d.b = d.b[n:]
		if len(d.strs) < maxSpoolStrings {
			d.strs = append(d.strs, s)
		}
		return s
	case c-strRef < uint64(len(d.strs)):
		return d.strs[c-strRef]
	}
	d.fail()
	return ""
}

func (d *spoolDecoder) time() time.Time {
	code := d.uint()
	var loc *time.Location
	switch code {
	case timeZero:
		return time.Time{}
	case timeUTC:
		loc = time.UTC
	case timeLocal:
		loc = time.Local
	case timeFixed:
		name := d.str()
		loc = time.FixedZone(name, int(d.int()))
	default:
		d.fail()
		return time.Time{}
	}
	sec := d.lastSec + d.int()
	d.lastSec = sec
	return time.Unix(sec, int64(d.uint())).In(loc)
}

func (d *spoolDecoder) timePtr() *time.Time {
	if d.uint() == 0 {
		return nil
	}
	t := d.time()
	return &t
}

// count reads a length, refusing one longer than the bytes left could hold.
func (d *spoolDecoder) count() int {
	n := d.uint()
	if n > uint64(len(d.b)) {
		d.fail()
		return 0
	}
	return int(n)
}

// timeline decodes one event's timeline.
func (d *spoolDecoder) timeline() (*EventTimeline, error) {
	ev := &EventTimeline{ID: d.str(), Seq: int(d.int()), Fate: d.str()}
	if n := d.count(); n > 0 {
		ev.Attempts = make([]simulator.Record, n)
		for i := range ev.Attempts {
			d.record(&ev.Attempts[i])
		}
	}
	if n := d.count(); n > 0 {
		ev.Attacks = make([]simulator.Record, n)
		for i := range ev.Attacks {
			d.record(&ev.Attacks[i])
		}
	}
	if d.err == nil && len(d.b) != 0 {
		d.fail()
	}
	return ev, d.err
}

func (d *spoolDecoder) record(r *simulator.Record) {
	flags := d.uint()
	r.Reached, r.Manual, r.Probe = flags&flagReached != 0, flags&flagManual != 0, flags&flagProbe != 0
	r.Interrupted, r.EffectsKnown = flags&flagInterrupted != 0, flags&flagEffectsKnown != 0
	r.Kind = d.str()
	r.Provider = d.str()
	r.Policy = d.str()
	r.Scenario = d.str()
	r.Seed = d.uint()
	r.Event = d.str()
	r.Seq = int(d.int())
	r.N = int(d.int())
	r.Time = d.time()
	r.AtSeconds = d.float()
	r.Outcome = simulator.Outcome(d.str())
	r.Status = int(d.int())
	r.HandlerStatus = int(d.int())
	r.LatencyMS = d.float()
	r.AddedLatencyMS = d.float()
	r.Fault = d.str()
	r.Object = d.str()
	r.Copy = int(d.int())
	r.Error = d.str()
	r.Signal = d.str()
	if flags&flagAttack != 0 {
		r.Attack = d.str()
		r.AttackChange = d.str()
		r.AttackDetail = d.str()
		r.ProbeExpect = int(d.int())
		r.NotApplicable = d.str()
		r.Undetectable = d.str()
		r.OriginalStatus = int(d.int())
	}
	if flags&flagFate != 0 {
		r.Fate = d.str()
		r.Effects = int(d.int())
	}
	if flags&flagRunBlock != 0 {
		r.Target = d.str()
		r.Events = int(d.int())
		r.Summary = d.str()
		r.MaxAttempt = int(d.int())
		r.WindowS = d.float()
		r.TimeoutS = d.float()
		r.ManualS = d.float()
		r.DisableN = int(d.int())
		r.DisableS = d.float()
		r.DisableRule = d.str()
		r.DedupField = d.str()
		if n := d.count(); n > 0 {
			r.ScheduleS = make([]float64, n-1)
			for i := range r.ScheduleS {
				r.ScheduleS[i] = d.float()
			}
		}
		r.Start = d.timePtr()
		r.DisabledAt = d.timePtr()
		r.DisabledBy = d.str()
		r.EffectsSource = d.str()
	}
}
