package main

import (
	"strings"
	"testing"
)

// FuzzMaxRPS: no --max-rps value makes the flag panic; a value it takes is a
// rate within bounds that prints back as itself.
func FuzzMaxRPS(f *testing.F) {
	for _, s := range []string{"10", "0", "2.5", "auto", "AUTO", "-1", "NaN", "Inf", "1e300", "0x10", " 7 ", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v := newMaxRPSFlag()
		if err := v.Set(s); err != nil {
			if !strings.Contains(err.Error(), "auto") {
				t.Fatalf("error %q does not say what is valid", err)
			}
			return
		}
		if !v.auto && !(v.rps >= 0 && v.rps <= 1_000_000) {
			t.Fatalf("%q gave rate %g", s, v.rps)
		}
		again := newMaxRPSFlag()
		if err := again.Set(v.String()); err != nil || *again != *v {
			t.Fatalf("%q prints as %q, which reads back as %+v (%v)", s, v.String(), *again, err)
		}
	})
}
