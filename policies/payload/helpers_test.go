package payload

import (
	"regexp"
	"testing"
	"time"

	"github.com/retrysim/retrysim/policies"
)

func wire(t testing.TB, name string) policies.Wire {
	t.Helper()
	w, ok := policies.WireFor(name)
	if !ok {
		t.Fatalf("no wire %s", name)
	}
	return w
}

// event is event seq of a run as the engine makes it: a fresh id from the
// seed and the run, an object shared with every fourth event.
func event(w policies.Wire, seq int, run uint64) policies.Event {
	ev := policies.Event{
		Seq: seq, Seed: uint64(seq)*7919 + run, Type: w.DefaultEventType(),
		Created: time.Date(2026, 1, 1, 0, seq, 0, 0, time.UTC), Object: "obj_" + string(rune('a'+seq%4)),
	}
	w.NewEvent(&ev)
	return ev
}

func mustParse(t testing.TB, w policies.Wire, src string, overrides ...Override) *Template {
	t.Helper()
	tpl, err := Parse(w, "p.json", []byte(src), "", overrides)
	if err != nil {
		t.Fatal(err)
	}
	return tpl
}

func mustOverride(t testing.TB, s string) Override {
	t.Helper()
	o, err := ParseOverride(s)
	if err != nil {
		t.Fatal(err)
	}
	return o
}

func matches(pattern, s string) bool {
	return regexp.MustCompile("^" + pattern + "$").MatchString(s)
}
