package main

import (
	"bytes"
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

// FuzzRedact: however the output is cut into writes, no spelling of a
// secret gets through, and output without a secret passes unchanged.
func FuzzRedact(f *testing.F) {
	f.Add("whsec_abcdef", "target: http://127.0.0.1/?k=whsec_abcdef", uint(20))
	f.Add("s3cr3t+/=", `{"target":"s3cr3t%2B%2F%3D"}`, uint(3))
	f.Add("whsec_abcdef", "whsec_abcdewhsec_abcdef", uint(5))
	f.Fuzz(func(t *testing.T, secret, text string, cut uint) {
		forms := spellings(secret)
		for _, form := range forms {
			if strings.Contains(redacted, form) || strings.ContainsAny(form, "[]") {
				return // the secret overlaps the marker that replaces it
			}
		}
		sec := &secretSet{}
		sec.add(secret)
		var out bytes.Buffer
		w := sec.writer(&out)
		at := 0
		if len(text) > 0 {
			at = int(cut % uint(len(text)+1))
		}
		for _, part := range []string{text[:at], text[at:]} {
			if n, err := w.Write([]byte(part)); err != nil || n != len(part) {
				t.Fatalf("Write = %d, %v", n, err)
			}
		}
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		if len(secret) < minRedacted {
			if out.String() != text {
				t.Fatalf("a secret too short to redact changed the output: %q → %q", text, out.String())
			}
			return
		}
		for _, form := range forms {
			if len(form) >= minRedacted && strings.Contains(out.String(), form) {
				t.Fatalf("%q shows through as %q in %q", secret, form, out.String())
			}
		}
		clean := true
		for _, form := range forms {
			clean = clean && !strings.Contains(text, form)
		}
		if clean && out.String() != text {
			t.Fatalf("output without a secret changed: %q → %q", text, out.String())
		}
	})
}
