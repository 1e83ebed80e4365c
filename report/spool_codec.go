package report

import (
	"encoding/binary"
	"errors"
	"math"
	"math/bits"
	"time"

	"github.com/retrysim/retrysim/simulator"
)

// The spool's encoding of a record: varints, floats with their bytes
// reversed (so round numbers are short varints), names that repeat across
// records (kinds, runs, outcomes, faults, errors) said once per spool and
// then referred to by number, and the event's own id and object referred
// to after its first record. A black-hole attempt takes about 30 bytes.

// errSpoolCorrupt is returned, wrapped, when a spooled timeline does not
// decode: the spool file was changed or cut under the report.
var errSpoolCorrupt = errors.New("report: spooled timeline is corrupt")

// String codes: "", a string written out (length and bytes follow), the
// event's id, the event's object, or (from strTable on) a string of the
// spool's table.
const (
	strEmpty = iota
	strInline
	strID
	strObject
	strTable
)

// The spool's table of repeated strings is bounded: past these, strings are
// written out in full each time.
const (
	maxTableStrings = 4096
	maxTableLen     = 256
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
	flagFate     // Fate, Effects and Type follow
	flagRunBlock // the run and end fields follow
	flagEffectsUnsettled
	flagDefaultScenario
	flagDryRun
	flagHandshake // the handshake fields follow
	flagOutage
)

// spoolStrings is the spool's table of repeated strings, shared by its
// encoder and decoder: the spool is read back by the process that wrote it.
type spoolStrings struct {
	index map[string]uint64
	list  []string
}

// spoolEncoder appends records to b. id, object and seq are the event's
// (its first attempt's), which its records refer to.
type spoolEncoder struct {
	b          []byte
	strs       *spoolStrings
	id, object string
	seq        int
}

func (e *spoolEncoder) uint(v uint64)       { e.b = binary.AppendUvarint(e.b, v) }
func (e *spoolEncoder) int(v int64)         { e.b = binary.AppendVarint(e.b, v) }
func (e *spoolEncoder) dur(d time.Duration) { e.int(int64(d)) }

// spans writes a count and that many [from, to) windows.
func (e *spoolEncoder) spans(w [][2]time.Duration) {
	e.uint(uint64(len(w)))
	for _, s := range w {
		e.dur(s[0])
		e.dur(s[1])
	}
}
func (e *spoolEncoder) float(f float64) {
	e.uint(bits.ReverseBytes64(math.Float64bits(f)))
}

func (e *spoolEncoder) inline(s string) {
	e.uint(strInline)
	e.uint(uint64(len(s)))
	e.b = append(e.b, s...)
}

// str writes a string likely to repeat across events: through the table.
func (e *spoolEncoder) str(s string) {
	if s == "" {
		e.uint(strEmpty)
		return
	}
	t := e.strs
	k, ok := t.index[s]
	if !ok {
		if len(t.list) >= maxTableStrings || len(s) > maxTableLen {
			e.inline(s)
			return
		}
		if t.index == nil {
			t.index = map[string]uint64{}
		}
		k = uint64(len(t.list))
		s = string([]byte(s)) // not the record's string, which may hold more
		t.index[s] = k
		t.list = append(t.list, s)
	}
	e.uint(strTable + k)
}

// name writes a string that names one event: its id or object, or else
// written out.
func (e *spoolEncoder) name(s string) {
	switch s {
	case "":
		e.uint(strEmpty)
	case e.id:
		e.uint(strID)
	case e.object:
		e.uint(strObject)
	default:
		e.inline(s)
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
	e.int(t.Unix())
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
	set(r.EffectsUnsettled, flagEffectsUnsettled)
	set(r.DefaultScenario, flagDefaultScenario)
	set(r.DryRun, flagDryRun)
	set(r.Outage, flagOutage)
	set(hasAttackFields(r), flagAttack)
	set(r.Fate != "" || r.Effects != 0 || r.EffectsBefore != 0 || r.Type != "", flagFate)
	set(hasRunFields(r), flagRunBlock)
	set(r.Handshake != "" || r.HandshakeExpect != "" || r.HandshakeProblem != "", flagHandshake)
	e.uint(flags)
	e.str(r.Kind)
	e.str(r.Provider)
	e.str(r.Policy)
	e.str(r.Scenario)
	e.uint(r.Seed)
	e.name(r.EventID)
	e.int(int64(r.Seq) - int64(e.seq))
	e.int(int64(r.Attempt))
	e.int(int64(r.Attempts))
	e.int(int64(r.Restart))
	e.time(r.Time)
	e.dur(r.At)
	e.str(string(r.Outcome))
	e.int(int64(r.Status))
	e.int(int64(r.HandlerStatus))
	e.dur(r.Latency)
	e.dur(r.AddedLatency)
	e.str(r.Fault)
	e.name(r.Object)
	e.int(int64(r.Copy))
	e.int(int64(r.Subscription))
	e.str(r.Error)
	e.str(r.Signal)
	e.str(string(r.TLS))
	e.str(r.Tenant)
	e.str(r.RedirectRefused)
	e.str(r.RedirectUnreached)
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
		e.int(int64(r.EffectsBefore))
		e.str(r.Type)
	}
	if flags&flagHandshake != 0 {
		e.str(r.Handshake)
		e.str(r.HandshakeExpect)
		e.str(r.HandshakeProblem)
	}
	if flags&flagRunBlock != 0 {
		e.str(r.Target)
		e.int(int64(r.Events))
		e.str(r.Summary)
		e.int(int64(r.MaxAttempt))
		e.dur(r.Window)
		e.dur(r.Timeout)
		e.dur(r.ManualRedelivery)
		e.int(int64(r.DisableN))
		e.dur(r.DisableWithin)
		e.str(r.DisableRule)
		e.str(r.DedupField)
		e.str(r.DedupDeliveryField)
		e.str(r.EventType)
		e.spans(r.Outages)
		e.spans(r.Pauses)
		if r.Schedule == nil {
			e.uint(0)
		} else {
			e.uint(uint64(len(r.Schedule)) + 1)
			for _, s := range r.Schedule {
				e.dur(s)
			}
		}
		e.timePtr(r.Start)
		e.timePtr(r.DisabledAt)
		e.str(r.DisabledBy)
		e.int(int64(r.HandlersRunning))
		e.str(r.RunID)
		e.dur(r.SettleWait)
		e.dur(r.SettleLimit)
		e.dur(r.AdvisedTolerance)
		e.float(r.DisableRate)
		e.int(int64(r.DisableMinAttempts))
		e.dur(r.DisableFailingFor)
		e.str(string(r.DisabledCause))
		e.str(r.EffectsProblem)
		e.int(int64(r.EffectsPending))
		e.dur(r.SettledOnQuiet)
		e.int(int64(r.Tenants))
		e.int(int64(r.Shard))
		e.int(int64(r.Shards))
		e.timePtr(r.WallStart)
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
	return r.Target != "" || r.Events != 0 || r.Summary != "" || r.MaxAttempt != 0 || r.Window != 0 ||
		r.Timeout != 0 || r.ManualRedelivery != 0 || r.DisableN != 0 || r.DisableWithin != 0 || r.DisableRule != "" ||
		r.DedupField != "" || r.DedupDeliveryField != "" || r.EventType != "" || r.Outages != nil || r.Pauses != nil || r.Schedule != nil || r.Start != nil || r.WallStart != nil || r.DisabledAt != nil ||
		r.DisabledBy != "" || r.HandlersRunning != 0 || r.AdvisedTolerance != 0 || r.RunID != "" ||
		r.SettleWait != 0 || r.SettleLimit != 0 || r.DisableRate != 0 || r.DisableMinAttempts != 0 || r.DisableFailingFor != 0 ||
		r.DisabledCause != "" || r.EffectsProblem != "" || r.EffectsPending != 0 || r.SettledOnQuiet != 0 ||
		r.Tenants != 0 || r.Shard != 0 || r.Shards != 0
}

// spoolDecoder reads what spoolEncoder wrote; the first problem sticks in
// err and every later read returns zero.
type spoolDecoder struct {
	b          []byte
	strs       *spoolStrings
	id, object string
	seq        int
	err        error
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

func (d *spoolDecoder) dur() time.Duration { return time.Duration(d.int()) }

// spans reads what spoolEncoder.spans wrote: nil for none.
func (d *spoolDecoder) spans() [][2]time.Duration {
	n := d.uint()
	if n == 0 {
		return nil
	}
	if n > uint64(len(d.b)) {
		d.fail()
		return nil
	}
	w := make([][2]time.Duration, n)
	for i := range w {
		w[i] = [2]time.Duration{d.dur(), d.dur()}
	}
	return w
}

func (d *spoolDecoder) float() float64 {
	return math.Float64frombits(bits.ReverseBytes64(d.uint()))
}

func (d *spoolDecoder) str() string {
	switch c := d.uint(); {
	case c == strEmpty:
		return ""
	case c == strInline:
		n := d.uint()
		if n > uint64(len(d.b)) {
			d.fail()
			return ""
		}
		s := string(d.b[:n])
		d.b = d.b[n:]
		return s
	case c == strID:
		return d.id
	case c == strObject:
		return d.object
	case c-strTable < uint64(len(d.strs.list)):
		return d.strs.list[c-strTable]
	}
	d.fail()
	return ""
}

func (d *spoolDecoder) time() time.Time {
	var loc *time.Location
	switch d.uint() {
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
	sec := d.int()
	return time.Unix(sec, int64(d.uint())).In(loc)
}

func (d *spoolDecoder) timePtr() *time.Time {
	if d.uint() == 0 {
		return nil
	}
	t := d.time()
	return &t
}

func (d *spoolDecoder) record(r *simulator.Record) {
	flags := d.uint()
	r.Reached, r.Manual, r.Probe = flags&flagReached != 0, flags&flagManual != 0, flags&flagProbe != 0
	r.Interrupted, r.EffectsKnown = flags&flagInterrupted != 0, flags&flagEffectsKnown != 0
	r.EffectsUnsettled = flags&flagEffectsUnsettled != 0
	r.DefaultScenario = flags&flagDefaultScenario != 0
	r.DryRun = flags&flagDryRun != 0
	r.Outage = flags&flagOutage != 0
	r.Kind = d.str()
	r.Provider = d.str()
	r.Policy = d.str()
	r.Scenario = d.str()
	r.Seed = d.uint()
	r.EventID = d.str()
	r.Seq = int(int64(d.seq) + d.int())
	r.Attempt = int(d.int())
	r.Attempts = int(d.int())
	r.Restart = int(d.int())
	r.Time = d.time()
	r.At = d.dur()
	r.Outcome = simulator.Outcome(d.str())
	r.Status = int(d.int())
	r.HandlerStatus = int(d.int())
	r.Latency = d.dur()
	r.AddedLatency = d.dur()
	r.Fault = d.str()
	r.Object = d.str()
	r.Copy = int(d.int())
	r.Subscription = int(d.int())
	r.Error = d.str()
	r.Signal = d.str()
	r.TLS = simulator.TLSProblem(d.str())
	r.Tenant = d.str()
	r.RedirectRefused = d.str()
	r.RedirectUnreached = d.str()
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
		r.EffectsBefore = int(d.int())
		r.Type = d.str()
	}
	if flags&flagHandshake != 0 {
		r.Handshake = d.str()
		r.HandshakeExpect = d.str()
		r.HandshakeProblem = d.str()
	}
	if flags&flagRunBlock != 0 {
		r.Target = d.str()
		r.Events = int(d.int())
		r.Summary = d.str()
		r.MaxAttempt = int(d.int())
		r.Window = d.dur()
		r.Timeout = d.dur()
		r.ManualRedelivery = d.dur()
		r.DisableN = int(d.int())
		r.DisableWithin = d.dur()
		r.DisableRule = d.str()
		r.DedupField = d.str()
		r.DedupDeliveryField = d.str()
		r.EventType = d.str()
		r.Outages = d.spans()
		r.Pauses = d.spans()
		if n := d.uint(); n > 0 {
			if n-1 > uint64(len(d.b)) {
				d.fail()
				return
			}
			r.Schedule = make([]time.Duration, n-1)
			for i := range r.Schedule {
				r.Schedule[i] = d.dur()
			}
		}
		r.Start = d.timePtr()
		r.DisabledAt = d.timePtr()
		r.DisabledBy = d.str()
		r.HandlersRunning = int(d.int())
		r.RunID = d.str()
		r.SettleWait = d.dur()
		r.SettleLimit = d.dur()
		r.AdvisedTolerance = d.dur()
		r.DisableRate = d.float()
		r.DisableMinAttempts = int(d.int())
		r.DisableFailingFor = d.dur()
		r.DisabledCause = simulator.DisableCause(d.str())
		r.EffectsProblem = d.str()
		r.EffectsPending = int(d.int())
		r.SettledOnQuiet = d.dur()
		r.Tenants = int(d.int())
		r.Shard = int(d.int())
		r.Shards = int(d.int())
		r.WallStart = d.timePtr()
	}
}
