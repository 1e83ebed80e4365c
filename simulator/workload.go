package simulator

import (
	"time"

	"github.com/retrysim/retrysim/policies"
)

// workload generates the run's events lazily, in order of arrival, so memory
// does not grow with the number of events.
type workload struct {
	seed uint64
	// ids is the run id's key (runKey), mixed into every id and object
	// name so that no two runs share one; the timeline does not use it.
	ids   uint64
	n     int
	start time.Time
	over  time.Duration
	wire  policies.Wire
	typ   string
	// version is the payload version the policy chose (Event.Version).
	version string
	// tenants is the number of senders (tenant.go).
	tenants int
	// scratch is the event names makes ids in.
	scratch *policies.Event
	// payloads, when set, says each event's type (Config.Payloads).
	payloads Payloads
}

// typeOf is event i's type: its payload's, or the run's.
func (w *workload) typeOf(i int) string {
	if w.payloads != nil {
		if t := w.payloads.Type(i); t != "" {
			return t
		}
	}
	return w.typ
}

// arrival is when event i's first attempt happens, measured from the run's
// start: each event has its own slot of over/n and a place in it drawn from
// the seed, so arrivals are sorted and spread evenly, with no two at the
// same instant by design.
func (w *workload) arrival(i int) time.Duration {
	r := policies.Key(w.seed, uint64(i), 0xa1)
	slot := float64(w.over) / float64(w.n)
	return time.Duration((float64(i) + r.Float64()) * slot)
}

// EventsPerObject is about how many events of a workload are about the same
// object (a customer, an order): events i, i+m, i+2m, … share one, where m
// is the number of objects. Retries that overtake each other then deliver
// news about one object out of order.
const EventsPerObject = 4

// objects is the number of objects the events are about.
func (w *workload) objects() int { return max(1, (w.n+EventsPerObject-1)/EventsPerObject) }

// object names the object event i is about.
func (w *workload) object(i int) string {
	var b [objectLen]byte
	return string(w.appendObject(b[:0], i))
}

// objectLen is the length of an object's name.
const objectLen = len("obj_") + 16

// appendObject appends the name of the object event i is about to dst.
func (w *workload) appendObject(dst []byte, i int) []byte {
	o := i % w.objects()
	r := policies.Key(w.seed^w.ids, uint64(o), 0x0b)
	return r.AppendHex(append(dst, "obj_"...), 8)
}

// names is what a dry run keeps of event i: its dedup id followed by the
// object it is about, in one string, and the id's length. It is called
// from the scheduler's goroutine alone, and reuses one event to make the
// id in.
func (w *workload) names(i int) (string, int) {
	var b [64]byte
	names, split := w.appendNames(b[:0], i)
	return string(names), split
}

// appendNames appends event i's dedup id and then its object to dst, and
// says where the object begins.
func (w *workload) appendNames(dst []byte, i int) ([]byte, int) {
	if w.scratch == nil {
		w.scratch = new(policies.Event)
	}
	id := w.idIn(w.scratch, i)
	split := len(dst) + len(id)
	return w.appendObject(append(dst, id...), i), split
}

// next is when the next event about the same object as event i is first
// sent, measured from the run's start; false when event i is the last about
// its object.
func (w *workload) next(i int) (time.Duration, bool) {
	j := i + w.objects()
	if j >= w.n {
		return 0, false
	}
	return w.arrival(j), true
}

// nextOrNone is next, -1 when event i is the last about its object (the
// scenario's Context.Next).
func (w *workload) nextOrNone(i int) time.Duration {
	if next, ok := w.next(i); ok {
		return next
	}
	return -1
}

// id is event i's dedup id, as event(i) makes it, without the rest of the
// event: the wire formats draw their ids from the event's Seed alone.
func (w *workload) id(i int) string { return w.idIn(new(policies.Event), i) }

// idIn is id, making the event's id in ev.
func (w *workload) idIn(ev *policies.Event, i int) string {
	r := policies.Key(w.seed^w.ids, uint64(i), 0xe7)
	*ev = policies.Event{Seq: i, Seed: r.Uint64(), Type: w.typeOf(i)}
	w.wire.NewEvent(ev)
	return ev.ID
}

// event builds event i: its dedup id, type and object. Its id and details
// come from the seed and the run id together.
func (w *workload) event(i int) policies.Event {
	r := policies.Key(w.seed^w.ids, uint64(i), 0xe7)
	ev := policies.Event{Seq: i, Seed: r.Uint64(), Type: w.typeOf(i), Created: w.start.Add(w.arrival(i)), Object: w.object(i), Version: w.version, Tenant: w.tenantName(i)}
	w.wire.NewEvent(&ev)
	return ev
}
