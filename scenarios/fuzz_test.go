package scenarios

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// FuzzDecode feeds the scenario parser arbitrary YAML: it must never panic,
// every failure must be ErrInvalid, and a scenario it accepts must decide
// attempts without panicking and the same way twice. The seed corpus is the
// built-in catalogue plus testdata/fuzz/FuzzDecode.
func FuzzDecode(f *testing.F) {
	for _, n := range Builtin() {
		src, _ := Source(n)
		f.Add(src)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := Decode("fuzz.yaml", data)
		if err != nil {
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("error is not ErrInvalid: %v", err)
			}
			if !strings.Contains(err.Error(), "fuzz.yaml") {
				t.Fatalf("error does not name the file: %v", err)
			}
			return
		}
		if s.Name == "" {
			t.Fatal("accepted a scenario without a name")
		}
		for i, f := range s.Faults {
			if !(f.Probability >= 0 && f.Probability <= 1) {
				t.Fatalf("fault %d accepted with probability %g", i+1, f.Probability)
			}
		}
		for ev := range 3 {
			for n := 1; n <= 3; n++ {
				c := Context{Event: ev, Attempt: n, At: time.Duration(ev*n) * time.Minute, Next: -1, Timeout: 10 * time.Second}
				a, b := s.Decide(9, c), s.Decide(9, c)
				if a.Effect != b.Effect || a.Fault() != b.Fault() || a.Latency < 0 {
					t.Fatalf("decided %+v then %+v", a, b)
				}
			}
		}
		s.Restarts()
		s.EarliestRedelivery()
		s.Redelivery(9, Context{Event: 1, Attempt: 4})
	})
}
