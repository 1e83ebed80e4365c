package report

import (
	"fmt"
	"strings"
)

// policyWords names the run's policy for a header, with its summary when
// it has one: "stripe (16 attempts over 3 days, exponential backoff)".
func (r *Summary) policyWords() string {
	if r.PolicySummary == "" {
		return r.Policy
	}
	return r.Policy + " (" + r.PolicySummary + ")"
}

// scenarioWords names the run's scenario for a header, saying when it was
// the default rather than a choice: its faults are in the figures, and a
// reader who asked for none should know where they came from.
func (r *Summary) scenarioWords() string { return r.Scenario + defaultWords(r) }

// defaultWords is " (default scenario)" for a run whose scenario nobody
// chose, "" otherwise.
func defaultWords(r *Summary) string {
	if r.DefaultScenario {
		return " (default scenario)"
	}
	return ""
}

// seedWords names what reproduces the run: "seed 7 · run k3f9q2ab" (the
// seed gives the timeline and the faults, the run id the event ids), or
// the seed alone for a stream written before runs had an id.
func (r *Summary) seedWords() string {
	if r.RunID == "" {
		return fmt.Sprintf("seed %d", r.Seed)
	}
	return fmt.Sprintf("seed %d · run %s", r.Seed, r.RunID)
}

// plannedWords says how many events the run was to deliver, or, for a run
// of real deliveries taken as they came, how many came.
func (r *Summary) plannedWords() string {
	if r.Planned == 0 {
		return fmt.Sprintf("%d real %s", r.Events, plural(r.Events, "delivery", "deliveries"))
	}
	return counted(r.Planned, "event", "events")
}

// typeWords says of what type the run's events were, to follow
// plannedWords: " of type invoice.paid". A run of real deliveries says
// what came: " of type invoice.paid" when they were all of one type, or
// how many were of each type, the most first ("3 real deliveries of 2
// types (2 invoice.paid, 1 customer.created)"), those that gave no type
// among them; beyond maxTypesListed types, how many deliveries the others
// were. name spells a type for the format (a code span in markdown). ""
// when the stream does not say.
func (r *Summary) typeWords(name func(string) string) string {
	c := r.EventTypes
	switch {
	case len(c) == 0 && r.EventType == "":
		return ""
	case len(c) == 0:
		return " of type " + name(r.EventType)
	case len(c) == 1 && c[0].Type != "":
		return " of type " + name(c[0].Type)
	case len(c) == 1:
		return " (type not given)"
	}
	parts := make([]string, 0, maxTypesListed+1)
	named := 0
	for i, t := range c {
		if t.Type != "" {
			named++
		}
		switch {
		case i >= maxTypesListed:
		case t.Type == "":
			parts = append(parts, fmt.Sprintf("%d with no type given", t.Events))
		default:
			parts = append(parts, fmt.Sprintf("%d %s", t.Events, name(t.Type)))
		}
	}
	if len(c) > maxTypesListed {
		others := 0
		for _, t := range c[maxTypesListed:] {
			others += t.Events
		}
		parts = append(parts, fmt.Sprintf("%d of %s", others, counted(len(c)-maxTypesListed, "other type", "other types")))
	}
	of := ""
	if named == len(c) {
		of = " of " + counted(named, "type", "types")
	}
	return of + " (" + strings.Join(parts, ", ") + ")"
}

// maxTypesListed bounds the types a header counts by name.
const maxTypesListed = 5

// plainType spells a type as it is, for the formats that escape the
// whole line.
func plainType(t string) string { return t }
