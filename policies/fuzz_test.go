package policies

import (
	"errors"
	"testing"
)

// FuzzWithURLOverrides: any fragment either applies, giving a valid policy
// whose timeout stays within Twilio's bounds, or fails with ErrBadOverride.
func FuzzWithURLOverrides(f *testing.F) {
	for _, s := range []string{"rc=2&rp=all&ct=1000&rt=5000&tt=15000", "rc=9", "rp=4xx,5xx", "tt=100", "%zz", "edge=ashburn"} {
		f.Add(s)
	}
	base, err := Lookup("twilio-docs")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, frag string) {
		p, err := base.WithURLOverrides("http://127.0.0.1/sms#" + frag)
		if err != nil {
			if !errors.Is(err, ErrBadOverride) {
				t.Fatalf("%q: error %v is not ErrBadOverride", frag, err)
			}
			return
		}
		if p.Timeout <= 0 || p.MaxAttempts() < 1 || p.MaxAttempts() > 6 {
			t.Fatalf("%q: timeout %s, %d attempts", frag, p.Timeout, p.MaxAttempts())
		}
	})
}

// FuzzExtendYAML: any document either extends the catalogue with policies
// that work, or fails with ErrBadConfig; it never panics.
func FuzzExtendYAML(f *testing.F) {
	for _, s := range []string{"stripe: {timeout: 20s}", "acme: {base: svix}", "x: {provider: zoom, schedule: {delays: [1m]}, timeout: 1s}", "stripe: [1]", "- a"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, doc string) {
		cat, err := Default().ExtendYAML("fuzz.yaml", []byte(doc))
		if err != nil {
			return
		}
		for _, n := range cat.Names() {
			p, _ := cat.Lookup(n)
			if p.Wire() == nil || p.MaxAttempts() < 1 || p.Window() < 0 {
				t.Fatalf("%q: policy %s is not usable", doc, n)
			}
		}
	})
}
