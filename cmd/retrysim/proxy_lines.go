package main

import (
	"fmt"
	"io"

	"github.com/retrysim/retrysim/policies"
	"github.com/retrysim/retrysim/report"
	"github.com/retrysim/retrysim/simulator"
)

// eventLines prints, as the proxy runs, one line for each event whose
// schedule has ended: its id, type, attempts, fate, and how often it
// reached the handler beyond the first time.
type eventLines struct {
	w  io.Writer
	in *intake
	// reached counts, by event, the attempts that reached the handler.
	reached map[int]int
}

func newEventLines(w io.Writer, in *intake) *eventLines {
	return &eventLines{w: w, in: in, reached: map[int]int{}}
}

func (l *eventLines) add(r *simulator.Record) {
	switch r.Kind {
	case simulator.KindAttempt:
		if r.Reached {
			l.reached[r.Seq]++
		}
	case simulator.KindEvent:
		n := l.reached[r.Seq]
		delete(l.reached, r.Seq)
		typ := l.in.typeOf(r.Seq)
		if typ == "" {
			typ = "(type not given)"
		}
		dups := "no duplicate"
		if n > 1 {
			dups = fmt.Sprintf("%d %s reached your handler", n-1, policies.Plural(n-1, "duplicate", "duplicates"))
		}
		// The id and the type are the sender's: escaped before they reach
		// a terminal, or make a line of their own.
		fmt.Fprintf(l.w, "  %s %s · %d %s · %s · %s\n", report.EscapeText(r.Event), report.EscapeText(typ), r.N, policies.Plural(r.N, "attempt", "attempts"), r.Fate, dups)
	}
}
