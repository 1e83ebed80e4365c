package policies

import (
	"slices"
	"testing"
)

func TestParseNames(t *testing.T) {
	for _, tc := range []struct {
		name string
		list []string
		want []string
		err  string
	}{
		{"trimmed and lower-cased", []string{" Stripe", "github ", ""}, []string{"stripe", "github"}, ""},
		{"all", []string{" ALL "}, NamedDefaults(), ""},
		{"twice", []string{"stripe", "STRIPE"}, nil, `"stripe" is named twice`},
		{"none", []string{" ", ""}, nil, "no provider named (give one or more, e.g. stripe,shopify, or 'all')"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseNames(tc.list)
			if tc.err != "" {
				if err == nil || err.Error() != tc.err {
					t.Fatalf("got %v, %v; want error %q", got, err, tc.err)
				}
				return
			}
			if err != nil || !slices.Equal(got, tc.want) {
				t.Fatalf("got %v, %v; want %v", got, err, tc.want)
			}
		})
	}
}
