package scenarios

import (
	"errors"
	"strings"
	"testing"
)

func TestDecodeReportsEveryProblem(t *testing.T) {
	src := `name: broken
descripton: a typo in a key
faults:
  - type: lost-response
    probability: 1.5
  - type: latency
    latency: soon
  - type: outage
    start: 10m
    duraton: 2h
  - type: flood
`
	_, err := Decode("my.yaml", []byte(src))
	if !errors.Is(err, ErrInvalid) {
		t.Fatalf("err = %v, want ErrInvalid", err)
	}
	want := []string{
		`my.yaml:2: descripton: unknown key`,
		`my.yaml:5: faults[1].probability: 1.5 is not between 0 and 1`,
		`my.yaml:7: faults[2].latency: "soon" is not valid here`,
		`my.yaml:10: faults[3].duraton: outage has no key "duraton"`,
		`my.yaml:11: faults[4].type: unknown fault type "flood"`,
	}
	msg := err.Error()
	if !strings.Contains(msg, "5 problem(s)") {
		t.Errorf("error does not count 5 problems:\n%s", msg)
	}
	for _, w := range want {
		if !strings.Contains(msg, w) {
			t.Errorf("error lacks %q:\n%s", w, msg)
		}
	}
}

// A mistake in a fault's envelope does not hide one in its parameters, and
// the problems come in the order of their lines.
func TestDecodeEnvelopeAndParameterProblemsTogether(t *testing.T) {
	src := `name: broken
faults:
  - type: outage
    probability: 3
  - type: flapping
    every: 0
    down: 5m
`
	_, err := Decode("my.yaml", []byte(src))
	want := []string{
		`my.yaml:3: faults[1] (outage): duration: must be positive`,
		`my.yaml:4: faults[1].probability: 3 is not between 0 and 1`,
		`my.yaml:5: faults[2] (flapping): up: must be positive`,
		`my.yaml:6: faults[2].every: 0 is not allowed`,
	}
	if err == nil {
		t.Fatal("no error")
	}
	msg := err.Error()
	at := 0
	for _, w := range want {
		i := strings.Index(msg, w)
		if i < 0 {
			t.Fatalf("error lacks %q:\n%s", w, msg)
		}
		if i < at {
			t.Errorf("%q comes before an earlier line's problem:\n%s", w, msg)
		}
		at = i
	}
}

func TestDecodeProblems(t *testing.T) {
	cases := []struct{ name, src, want string }{
		{"empty", ``, "a scenario is a mapping"},
		{"no name", "faults: []", "name: missing"},
		{"faults not a list", "name: x\nfaults: {type: reset}", "faults: expected a list of faults, got a mapping"},
		{"no type", "name: x\nfaults: [{probability: 0.5}]", "faults[1].type: missing (valid: "},
		{"attempt 0", "name: x\nfaults: [{type: reset, attempts: [0]}]", "attempt numbers start at 1, got 0"},
		{"until before from", "name: x\nfaults: [{type: reset, from: 2h, until: 1h}]", "until (1h) must come after from (2h)"},
		{"from alone", "name: x\nfaults: [{type: reset, from: 2h}]", "from (2h) needs until"},
		{"every 0", "name: x\nfaults: [{type: reset, every: 0}]", `faults[1].every: 0 is not allowed`},
		{"restart takes no probability", "name: x\nfaults: [{type: restart, at: [1m], probability: 0.5}]", "restart does not take probability"},
		{"restart interval without until", "name: x\nfaults: [{type: restart, interval: 10m}]", "interval: 10m needs until"},
		{"restart with nothing", "name: x\nfaults: [{type: restart}]", "give at"},
		{"manual redelivery takes no attempts", "name: x\nfaults: [{type: manual-redelivery, after: 1d, attempts: [1]}]", "manual-redelivery does not take attempts"},
		{"edge status not an error", "name: x\nfaults: [{type: edge-error, status: [200]}]", "status: 200 is not an error status"},
		{"redirect status", "name: x\nfaults: [{type: redirect, status: 200}]", "status: 200 is not a redirect status (valid: 301, 302, 303, 307, 308)"},
		{"drop as", "name: x\nfaults: [{type: drop-request, as: slowly}]", `as: "slowly" is not a way to drop`},
		{"latency distribution", "name: x\nfaults: [{type: latency, distribution: zipf}]", `distribution: "zipf" is not a distribution (valid: fixed, lognormal, normal, pareto, uniform)`},
		{"latency key of another distribution", "name: x\nfaults: [{type: latency, latency: 1s, sigma: 2}]", "sigma: not used by distribution fixed"},
		{"uniform max under min", "name: x\nfaults: [{type: latency, distribution: uniform, min: 2s, max: 1s}]", "max: 1s must be above min (2s)"},
		{"flapping down", "name: x\nfaults: [{type: flapping, up: 1m}]", "down: must be positive"},
		{"a parameter's problem points at its line", "name: x\nfaults:\n  - type: flapping\n    up: 1m\n    down: 0s\n", "f.yaml:5: faults[1] (flapping): down: must be positive, got 0s"},
		{"fail-attempts first", "name: x\nfaults: [{type: fail-attempts}]", "first: 0 is out of range"},
		{"redirect hops given as 0", "name: x\nfaults: [{type: redirect, status: 308, hops: 0}]", "hops: 0 is out of range (1..20)"},
		{"a whole file that is not a mapping is not quoted", "STRIPE_SECRET=whsec_abc OTHER=1", "got text (31 characters)"},
		{"outage duration", "name: x\nfaults: [{type: outage, start: 1m}]", "duration: must be positive"},
		{"a list where a value belongs", "name: x\nfaults: [{type: reset, probability: [1]}]", "faults[1].probability: expected a single value, got a list"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Decode("f.yaml", []byte(tc.src))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v\nwant it to contain %q", err, tc.want)
			}
		})
	}
}

func TestDecodeMap(t *testing.T) {
	src := `secrets: {stripe: whsec_x}
scenarios:
  my-outage:
    description: our own
    faults: [{type: outage, start: 1m, duration: 1h}]
  bad:
    name: other
    faults: [{type: flood}]
`
	_, err := DecodeMap("retrysim.yaml", []byte(src), "scenarios")
	for _, w := range []string{
		`retrysim.yaml:7: scenarios.bad.name: "other" differs from the scenario's key "bad"`,
		`retrysim.yaml:8: scenarios.bad.faults[1].type: unknown fault type "flood"`,
	} {
		if err == nil || !strings.Contains(err.Error(), w) {
			t.Errorf("err = %v\nwant it to contain %q", err, w)
		}
	}
	good := strings.Split(src, "  bad:")[0]
	m, err := DecodeMap("retrysim.yaml", []byte(good), "scenarios")
	if err != nil {
		t.Fatal(err)
	}
	s, ok := m["my-outage"]
	if !ok || s.Name != "my-outage" || s.Description != "our own" || len(s.Faults) != 1 {
		t.Fatalf("decoded %+v", m)
	}
	again, err := Decode("copy.yaml", s.YAML())
	if err != nil || again.Name != "my-outage" || len(again.Faults) != 1 {
		t.Errorf("the scenario's YAML does not decode to it again: %v\n%s", err, s.YAML())
	}
	none, err := DecodeMap("retrysim.yaml", []byte("secrets: {}\n"), "scenarios")
	if err != nil || len(none) != 0 {
		t.Errorf("no scenarios section: %v, %v", none, err)
	}
}

func TestCatalogue(t *testing.T) {
	want := []string{"happy", "flaky-network", "slow-handler", "outage", "outage-6h", "black-hole", "edge-errors",
		"duplicate-burst", "crash-restart", "moved-endpoint", "late-redelivery"}
	names := Builtin()
	for _, w := range want {
		s, err := Lookup(w)
		if err != nil {
			t.Errorf("built-in %s: %v", w, err)
			continue
		}
		if s.Name != w || len(s.Description) < 40 || strings.Contains(s.Description, "\n") {
			t.Errorf("built-in %s: name %q, description %q: want a one-line description of the incident", w, s.Name, s.Description)
		}
	}
	for _, n := range names {
		src, err := Source(n)
		if err != nil {
			t.Fatal(err)
		}
		s, err := Decode(n+".yaml", src)
		if err != nil || s.Name != n {
			t.Errorf("%s: its YAML does not decode to it: %v", n, err)
		}
	}
	if s, _ := Lookup("crash-restart"); len(s.Restarts()) != 23 {
		t.Errorf("crash-restart restarts %d times, want 23 (every 15m before 6h)", len(s.Restarts()))
	}
	if _, err := Lookup("nope"); !errors.Is(err, ErrUnknown) || !strings.Contains(err.Error(), "black-hole") {
		t.Errorf("unknown name: %v, want ErrUnknown listing the valid names", err)
	}
}
