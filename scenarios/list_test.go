package scenarios

import (
	"bytes"
	"testing"
)

// TestListShadowsBuiltins: a scenario of the caller's own of a built-in's
// name is listed once, as the caller's, after the built-in ones; its
// source is its own.
func TestListShadowsBuiltins(t *testing.T) {
	own := map[string]Scenario{
		"outage":   {Name: "outage", Description: "ours"},
		"a-custom": {Name: "a-custom", Description: "also ours"},
	}
	list := List(own)
	if len(list) != len(Builtin())+1 {
		t.Fatalf("%d listed, want the %d built-ins and one more", len(list), len(Builtin()))
	}
	tail := list[len(list)-2:]
	if tail[0] != (Listed{Name: "a-custom", Description: "also ours", Own: true}) || tail[1] != (Listed{Name: "outage", Description: "ours", Own: true}) {
		t.Errorf("own scenarios listed as %+v, want by name after the built-ins", tail)
	}
	for _, l := range list[:len(list)-2] {
		if l.Own || l.Name == "outage" || l.Description == "" {
			t.Errorf("built-in listed as %+v", l)
		}
	}
	src, err := SourceIn("outage", own)
	if err != nil || bytes.Equal(src, mustSource(t, "outage")) {
		t.Errorf("outage's source is the built-in's (%v), want its own", err)
	}
	if src, err := SourceIn("flaky-network", own); err != nil || !bytes.Equal(src, mustSource(t, "flaky-network")) {
		t.Errorf("flaky-network's source: %v", err)
	}
}

func mustSource(t *testing.T, name string) []byte {
	t.Helper()
	src, err := Source(name)
	if err != nil {
		t.Fatal(err)
	}
	return src
}
