package report

import (
	"strings"

	"github.com/retrysim/retrysim/simulator"
)

// Streams written by older versions of retrysim lack facts their records
// now carry. upgraded fills each in from what those streams said instead,
// before the record is folded into its run, so that every decision reads a
// field. This is the one place that reads the engine's words, and only
// for a record that lacks the field.
//
// The record is lent (a simulator.Sink's), so it is never changed: when a
// fact is missing, upgraded returns a filled-in copy in spare, and
// otherwise rec itself.
func upgraded(rec *simulator.Record, run *runAgg, spare *simulator.Record) *simulator.Record {
	out := rec
	copied := func() *simulator.Record {
		if out == rec {
			*spare = *rec
			out = spare
		}
		return out
	}
	switch rec.Kind {
	case simulator.KindRun:
		// A dry run's target was its only mark.
		if !rec.DryRun && strings.HasPrefix(rec.Target, "model (") {
			copied().DryRun = true
		}
		// A run of real deliveries named the provider's default type,
		// whatever came, and its event records did not give theirs.
		if rec.Events == 0 && rec.EventType != "" {
			copied().EventType = ""
			run.typesUnknown = true
		}
	case simulator.KindAttempt:
		// An outage was known by its fault's type.
		if !rec.Outage && run.outageFault(rec.Fault) {
			copied().Outage = true
		}
	case simulator.KindEnd:
		// The oracle's problem was only in Error, after one or more
		// "effects oracle: ".
		if rec.EffectsProblem == "" && rec.Error != "" && !rec.EffectsKnown {
			p := rec.Error
			for strings.HasPrefix(p, "effects oracle: ") {
				p = strings.TrimPrefix(p, "effects oracle: ")
			}
			copied().EffectsProblem = p
		}
		// The disable rule was known by its words.
		if rec.DisabledCause == "" && rec.DisabledBy != "" && rec.DisabledBy == run.disableRuleWords {
			copied().DisabledCause = simulator.DisabledByRule
		}
	}
	return out
}

// outageFault reports whether faults include an outage, remembering the
// last answer: a run's attempts carry a few fault strings, each millions
// of times.
func (r *runAgg) outageFault(faults string) bool {
	if faults == "" {
		return false
	}
	if faults != r.lastFaults {
		r.lastFaults, r.lastOutage = strings.Clone(faults), hasFault(faults, "outage") // not the record's string, which may hold more
	}
	return r.lastOutage
}

// hasFault reports whether a record's faults ("a+b") include name.
func hasFault(faults, name string) bool {
	for faults != "" {
		var f string
		f, faults, _ = strings.Cut(faults, "+")
		if f == name {
			return true
		}
	}
	return false
}
