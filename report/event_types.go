package report

import (
	"cmp"
	"slices"
	"strings"
)

// TypeCount is how many of a run's events were of one type.
type TypeCount struct {
	// Type is the event type, "" for events whose delivery gave none.
	Type   string
	Events int
}

// typeCounts counts a run of real deliveries' events by the type each
// delivery gave (simulator.EventFacts.Type).
type typeCounts map[string]int

// facts returns the counts, the most first, then by type: a fresh slice.
func (c typeCounts) facts() []TypeCount {
	if len(c) == 0 {
		return nil
	}
	out := make([]TypeCount, 0, len(c))
	for t, n := range c {
		out = append(out, TypeCount{Type: t, Events: n})
	}
	slices.SortFunc(out, func(a, b TypeCount) int {
		return cmp.Or(cmp.Compare(b.Events, a.Events), cmp.Compare(a.Type, b.Type))
	})
	return out
}

// namedTypes names the types of counts, comma separated in their order,
// leaving out the events that gave none: a run of real deliveries'
// EventType.
func namedTypes(counts []TypeCount) string {
	var names []string
	for _, c := range counts {
		if c.Type != "" {
			names = append(names, c.Type)
		}
	}
	return strings.Join(names, ", ")
}
