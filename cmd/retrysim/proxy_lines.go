package main

import (
	"fmt"
	"io"

	"github.com/retrysim/retrysim/policies"
	"github.com/retrysim/retrysim/report"
	"github.com/retrysim/retrysim/simulator"
	"github.com/retrysim/retrysim/simulator/proxy"
)

// eventLines prints, as the proxy runs, one line for each event whose
// schedule has ended: its id, type, attempts, fate, and how many duplicates
// reached the handler, counted as the report counts them (an arrival
// answered 4xx before the handler took the event in is refused, not a
// duplicate).
type eventLines struct {
	w  io.Writer
	in *proxy.Intake
	// arrivals follows, by event, the attempts that reached the handler;
	// dups counts the duplicates among them.
	arrivals map[int]*report.EventArrivals
	dups     map[int]int
}

func newEventLines(w io.Writer, in *proxy.Intake) *eventLines {
	return &eventLines{w: w, in: in, arrivals: map[int]*report.EventArrivals{}, dups: map[int]int{}}
}

func (l *eventLines) add(r *simulator.Record) {
	switch r.Kind {
	case simulator.KindAttempt:
		if !r.Reached {
			return
		}
		a := l.arrivals[r.Seq]
		if a == nil {
			a = &report.EventArrivals{}
			l.arrivals[r.Seq] = a
		}
		if a.Arrive(r.HandlerStatus) == report.ArrivalDuplicate {
			l.dups[r.Seq]++
		}
	case simulator.KindEvent:
		n := l.dups[r.Seq]
		delete(l.arrivals, r.Seq)
		delete(l.dups, r.Seq)
		typ := l.in.TypeOf(r.Seq)
		if typ == "" {
			typ = "(type not given)"
		}
		dups := "no duplicate"
		if n > 0 {
			dups = fmt.Sprintf("%d %s reached your handler", n, policies.Plural(n, "duplicate", "duplicates"))
		}
		// The id and the type are the sender's: escaped before they reach
		// a terminal, or make a line of their own.
		fmt.Fprintf(l.w, "  %s %s · %d %s · %s · %s\n", report.EscapeText(r.Event), report.EscapeText(typ), r.Attempts, policies.Plural(r.Attempts, "attempt", "attempts"), r.Fate, dups)
	}
}
