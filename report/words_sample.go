package report

import (
	"fmt"
	"strings"
)

// kindWords names each kind of fate, as a sample's statement counts them.
var kindWords = [numFateKinds]string{
	KindReprocessed:   "processed more than once",
	KindLostToDisable: "lost to the disable",
	KindNeverSent:     "never sent (disabled first)",
	KindGivenUp:       "given up",
	KindDuplicated:    "reached the handler again",
	KindRefused:       "refused with a 4xx",
	KindLate:          "delivered on a retry",
	KindDelivered:     "delivered at the first attempt",
	KindInterrupted:   "interrupted",
}

// String is the kind in the reports' words.
func (k FateKind) String() string {
	if k < numFateKinds {
		return kindWords[k]
	}
	return fmt.Sprintf("FateKind(%d)", uint8(k))
}

// sampleHead says how many of a run's events a sample shows:
// "10 of 200 events" or "all 30 events".
func sampleHead(sh Shown) string {
	if sh.Every {
		return "all " + thousands(sh.Of) + plural(sh.Of, " event", " events")
	}
	return fmt.Sprintf("%s of %s%s", thousands(len(sh.Events)), thousands(sh.Of), plural(sh.Of, " event", " events"))
}

// sampleShows says, kind by kind, how many of each a sample shows of how
// many: "shown by kind: 3 of 167 lost to the disable · 7 of 33 delivered at
// the first attempt", saying when an event is counted in several kinds (the
// counts then add up to more than the events); "" when it shows every
// event.
func sampleShows(sh Shown) string {
	if sh.Every || !sh.LeftOut() {
		return ""
	}
	var parts []string
	for _, k := range sh.Kinds {
		name := k.Kind.String()
		if k.Kind == KindDuplicated && sh.EffectsKnown {
			name += ", processed once"
		}
		parts = append(parts, fmt.Sprintf("%s of %s %s", thousands(k.Shown), thousands(k.Total), name))
	}
	s := "shown by kind: " + strings.Join(parts, " · ")
	if sh.Overlap() {
		s = "shown by kind (an event of several kinds counts in each): " + strings.Join(parts, " · ")
	}
	if m := sh.Missing(); len(m) > 0 {
		var names []string
		for _, k := range m {
			names = append(names, k.String())
		}
		s += fmt.Sprintf(" (none %s was kept to show)", strings.Join(names, ", "))
	}
	return s
}

// thousands writes n with thousands separators: 1,234,567.
func thousands(n int) string {
	s := fmt.Sprint(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}
