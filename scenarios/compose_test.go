package scenarios

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

// A composed scenario has every part's faults, names every part, decides
// from the seed alone, and its first part decides exactly as it does alone.
func TestCompose(t *testing.T) {
	flaky, err := Lookup("flaky-network")
	if err != nil {
		t.Fatal(err)
	}
	forged, err := Lookup("forged")
	if err != nil {
		t.Fatal(err)
	}
	both, err := Lookup("flaky-network,forged")
	if err != nil {
		t.Fatal(err)
	}
	if both.Name != "flaky-network,forged" || !reflect.DeepEqual(both.Parts, []string{"flaky-network", "forged"}) {
		t.Errorf("named %q, parts %q", both.Name, both.Parts)
	}
	if got, want := len(both.Faults), len(flaky.Faults)+len(forged.Faults); got != want {
		t.Errorf("%d faults, want %d", got, want)
	}
	lostAlone, lostBoth, attacks := 0, 0, 0
	for ev := range 400 {
		for n := 1; n <= 3; n++ {
			c := Context{Event: ev, Attempt: n, At: time.Duration(ev) * time.Minute, Timeout: 30 * time.Second, Next: -1}
			alone, composed := flaky.Decide(7, c), both.Decide(7, c)
			if alone.Effect != composed.Effect {
				t.Fatalf("event %d attempt %d: flaky-network alone %+v, composed %+v", ev, n, alone.Effect, composed.Effect)
			}
			if !reflect.DeepEqual(composed, both.Decide(7, c)) {
				t.Fatalf("event %d attempt %d: two decisions differ", ev, n)
			}
			if len(alone.Faults) > 0 {
				lostAlone++
			}
			if len(composed.Faults) > 0 {
				lostBoth++
			}
			attacks += len(composed.Attacks)
		}
	}
	if lostAlone == 0 || lostAlone != lostBoth || attacks == 0 {
		t.Errorf("faults applied: %d alone, %d composed; %d attacks composed", lostAlone, lostBoth, attacks)
	}

	for _, bad := range []string{"flaky-network,nope", "flaky-network,,forged", "forged,forged"} {
		if _, err := Lookup(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

// A scenario file includes built-in scenarios beside faults of its own;
// the catalogue's scenarios include none.
func TestDecodeInclude(t *testing.T) {
	s, err := Decode("ci.yaml", []byte("name: ci\ninclude: [flaky-network, forged]\nfaults:\n  - type: lost-response\n    probability: 0.1\n"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(s.Name, "flaky-network + forged") || len(s.Faults) < 3 {
		t.Errorf("named %q with %d faults", s.Name, len(s.Faults))
	}
	_, err = Decode("bad.yaml", []byte("name: bad\ninclude: [nope]\n"))
	if err == nil || !strings.Contains(err.Error(), `bad.yaml:2: include: "nope" is not a built-in scenario`) {
		t.Errorf("an unknown include: %v", err)
	}
	if _, err := decodeBuiltin("x.yaml", []byte("name: x\ninclude: [forged]\n")); err == nil {
		t.Error("a built-in that includes another decodes")
	}
}
