package simulator

import (
	"time"

	"github.com/retrysim/retrysim/policies"
)

// workload generates the run's events lazily, in order of arrival, so memory
// does not grow with the number of events.
type workload struct {
	seed  uint64
	n     int
	start time.Time
	over  time.Duration
	wire  policies.Wire
	typ   string
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

// event builds event i: its dedup id and type.
func (w *workload) event(i int) policies.Event {
	r := policies.Key(w.seed, uint64(i), 0xe7)
	ev := policies.Event{Seq: i, Seed: r.Uint64(), Type: w.typ, Created: w.start.Add(w.arrival(i))}
	w.wire.NewEvent(&ev)
	return ev
}
