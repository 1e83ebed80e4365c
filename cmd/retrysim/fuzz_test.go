package main

import (
	"strings"
	"testing"

	"github.com/retrysim/retrysim/policies"
)

// FuzzParseSecrets: no --secret value makes the parser panic; an error says
// which --secret is wrong and never depends on (so never shows) the value.
func FuzzParseSecrets(f *testing.F) {
	f.Add("stripe=whsec_abc", "github=s3cret")
	f.Add("STRIPE = whsec_x", "")
	f.Add("paypal=whsec_abc", "stripe=")
	f.Add("=whsec_abc", "no-equals-sign")
	f.Add("slack=a=b=c", "twilio=\x00\xff")
	f.Fuzz(func(t *testing.T, a, b string) {
		pairs := []string{a, b}
		got, err := parseSecrets(pairs)
		// The same pairs with every non-empty value replaced: the outcome
		// and any message must not change.
		masked := make([]string, len(pairs))
		for i, p := range pairs {
			if prov, val, ok := strings.Cut(p, "="); ok && val != "" {
				masked[i] = prov + "=MASK"
			} else {
				masked[i] = p
			}
		}
		_, merr := parseSecrets(masked)
		if (err == nil) != (merr == nil) || err != nil && err.Error() != merr.Error() {
			t.Fatalf("the outcome depends on a secret's value: %v / %v", err, merr)
		}
		if err != nil {
			if !strings.HasPrefix(err.Error(), "--secret #") {
				t.Fatalf("error does not say which --secret: %v", err)
			}
			return
		}
		for prov, val := range got {
			if _, ok := policies.WireFor(prov); !ok || val == "" {
				t.Fatalf("parsed %q=%q", prov, val)
			}
		}
	})
}

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
