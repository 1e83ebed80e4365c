package report

import (
	"fmt"
	"io"

	"github.com/retrysim/retrysim/policies"
	"github.com/retrysim/retrysim/simulator"
)

// EventLines prints, as a run goes, one line for each event whose
// schedule has ended: its id, type, attempts, fate, and how many
// duplicates reached the handler, counted as the report counts them (an
// arrival answered 4xx before the handler took the event in is refused,
// not a duplicate). The proxy prints them for the real deliveries it takes
// in.
type EventLines struct {
	w      io.Writer
	typeOf func(seq int) string
	// arrivals follows, by event, the attempts that reached the handler;
	// dups counts the duplicates among them.
	arrivals map[int]*EventArrivals
	dups     map[int]int
}

// NewEventLines prints the lines to w; typeOf gives an event's type by its
// sequence number ("" when the sender gave none).
func NewEventLines(w io.Writer, typeOf func(seq int) string) *EventLines {
	return &EventLines{w: w, typeOf: typeOf, arrivals: map[int]*EventArrivals{}, dups: map[int]int{}}
}

// Add takes one record of the run, in the run's order (a simulator.Sink's
// watch).
func (l *EventLines) Add(r *simulator.Record) {
	switch r.Kind {
	case simulator.KindAttempt:
		if !r.Reached {
			return
		}
		a := l.arrivals[r.Seq]
		if a == nil {
			a = &EventArrivals{}
			l.arrivals[r.Seq] = a
		}
		if a.Arrive(r.HandlerStatus) == ArrivalDuplicate {
			l.dups[r.Seq]++
		}
	case simulator.KindEvent:
		n := l.dups[r.Seq]
		delete(l.arrivals, r.Seq)
		delete(l.dups, r.Seq)
		typ := l.typeOf(r.Seq)
		if typ == "" {
			typ = "(type not given)"
		}
		dups := "no duplicate"
		if n > 0 {
			dups = fmt.Sprintf("%d %s reached your handler", n, policies.Plural(n, "duplicate", "duplicates"))
		}
		// The id and the type are the sender's: escaped before they reach
		// a terminal, or make a line of their own.
		fmt.Fprintf(l.w, "  %s %s · %d %s · %s · %s\n", EscapeText(r.EventID), EscapeText(typ), r.Attempts, policies.Plural(r.Attempts, "attempt", "attempts"), r.Fate, dups)
	}
}
