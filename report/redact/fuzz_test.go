package redact

import (
	"bytes"
	"strings"
	"testing"
)

// FuzzRedact: however the output is cut into writes, no spelling of a
// secret gets through, and output without a secret passes unchanged.
func FuzzRedact(f *testing.F) {
	f.Add("whsec_abcdef", "target: http://127.0.0.1/?k=whsec_abcdef", uint(20))
	f.Add("s3cr3t+/=", `{"target":"s3cr3t%2B%2F%3D"}`, uint(3))
	f.Add("whsec_abcdef", "whsec_abcdewhsec_abcdef", uint(5))
	f.Fuzz(func(t *testing.T, secret, text string, cut uint) {
		forms := Spellings(secret)
		for _, form := range forms {
			if strings.Contains(Marker, form) || strings.ContainsAny(form, "[]") {
				return // the secret overlaps the marker that replaces it
			}
		}
		sec := &Set{}
		sec.Add(secret)
		var out bytes.Buffer
		w := sec.Writer(&out)
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
		if len(secret) < MinLength {
			if out.String() != text {
				t.Fatalf("a secret too short to redact changed the output: %q → %q", text, out.String())
			}
			return
		}
		for _, form := range forms {
			if len(form) >= MinLength && strings.Contains(out.String(), form) {
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
