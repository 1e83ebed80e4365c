package policies

import (
	"errors"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

func TestParseSecrets(t *testing.T) {
	for _, tc := range []struct {
		name  string
		pairs []string
		want  map[string]string
		index int
		err   string
	}{
		{"two providers", []string{"stripe=whsec_abc", " GitHub =s3cret"}, map[string]string{"stripe": "whsec_abc", "github": "s3cret"}, 0, ""},
		{"a value with =", []string{"slack=a=b"}, map[string]string{"slack": "a=b"}, 0, ""},
		{"no value", []string{"stripe=whsec_abc", "github="}, nil, 2, "expected provider=value"},
		{"no provider", []string{"=whsec_abc"}, nil, 1, "expected provider=value"},
		{"unknown provider", []string{"acme=x"}, nil, 1, `unknown provider "acme"`},
		{"a secret the provider's libraries refuse", []string{"standard-webhooks=not-base64"}, nil, 1, "standard"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseSecrets(tc.pairs)
			if tc.index == 0 {
				if err != nil || len(got) != len(tc.want) {
					t.Fatalf("got %v, %v; want %v", got, err, tc.want)
				}
				for k, v := range tc.want {
					if got[k] != v {
						t.Errorf("%s = %q, want %q", k, got[k], v)
					}
				}
				return
			}
			var pe *SecretPairError
			if !errors.As(err, &pe) || pe.Index != tc.index || !strings.Contains(err.Error(), tc.err) {
				t.Fatalf("got %v (%T), want pair #%d: %s", err, err, tc.index, tc.err)
			}
		})
	}
}

// FuzzParseSecrets: no pair makes the parser panic; an error says which
// pair is wrong and never depends on (so never shows) the value.
func FuzzParseSecrets(f *testing.F) {
	f.Add("stripe=whsec_abc", "github=s3cret")
	f.Add("STRIPE = whsec_x", "")
	f.Add("paypal=whsec_abc", "stripe=")
	f.Add("=whsec_abc", "no-equals-sign")
	f.Add("slack=a=b=c", "twilio=\x00\xff")
	f.Fuzz(func(t *testing.T, a, b string) {
		pairs := []string{a, b}
		got, err := ParseSecrets(pairs)
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
		_, merr := ParseSecrets(masked)
		if (err == nil) != (merr == nil) || err != nil && err.Error() != merr.Error() {
			t.Fatalf("the outcome depends on a secret's value: %v / %v", err, merr)
		}
		if err != nil {
			if pe := (*SecretPairError)(nil); !errors.As(err, &pe) || pe.Index < 1 || pe.Index > len(pairs) {
				t.Fatalf("error does not say which pair: %v", err)
			}
			return
		}
		for prov, val := range got {
			if _, ok := WireFor(prov); !ok || val == "" {
				t.Fatalf("parsed %q=%q", prov, val)
			}
		}
	})
}

func TestDecodeSecrets(t *testing.T) {
	const file = "retrysim.yaml"
	decode := func(t *testing.T, src string) (map[string]string, []error) {
		t.Helper()
		var doc yaml.Node
		if err := yaml.Unmarshal([]byte(src), &doc); err != nil {
			t.Fatal(err)
		}
		return DecodeSecrets(file, doc.Content[0])
	}
	got, errs := decode(t, "Stripe: whsec_good\nacme: nope\ngithub: [a, b]\nslack: \"\"\n")
	if got["stripe"] != "whsec_good" || len(got) != 1 {
		t.Errorf("secrets = %v, want stripe's alone", got)
	}
	want := []string{
		`retrysim.yaml:2: secrets.acme: unknown provider "acme"`,
		"retrysim.yaml:3: secrets.github: expected the secret as a string (value not shown)",
		"retrysim.yaml:4: secrets.slack: expected the secret as a string (value not shown)",
	}
	if len(errs) != len(want) {
		t.Fatalf("errors = %v, want %d", errs, len(want))
	}
	for i, w := range want {
		if !strings.HasPrefix(errs[i].Error(), w) {
			t.Errorf("error %d = %q, want %q", i, errs[i], w)
		}
		if strings.Contains(errs[i].Error(), "nope") {
			t.Errorf("error %d shows the value: %q", i, errs[i])
		}
	}
	if _, errs := decode(t, "- stripe\n"); len(errs) != 1 || !strings.Contains(errs[0].Error(), "retrysim.yaml:1: secrets: expected a map") {
		t.Errorf("a list: %v", errs)
	}
}
