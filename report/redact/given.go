package redact

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/retrysim/retrysim/policies"
)

// AddGiven registers the secrets a user gave, which must never be
// written: the value of every provider=value pair, well-formed or not (so
// that it is redacted before anything checks it), and, for each of
// providers in turn, the secret configured tells (from a config file or
// the environment). Generated secrets are not given: they are printed on
// purpose.
//
// It returns a note for each provider whose secret is too short to redact
// (under MinLength), in order of name, naming the secret by its provider
// and length, never its value. A pair without a provider is the caller's
// to refuse, and gets no note.
func (s *Set) AddGiven(pairs []string, providers []string, configured func(provider string) (string, bool)) []string {
	short := map[string]int{}
	for _, p := range pairs {
		prov, v, ok := strings.Cut(p, "=")
		if !ok {
			v = p
		}
		s.Add(v)
		if ok && strings.TrimSpace(prov) != "" && v != "" && len(v) < MinLength {
			short[prov] = len(v)
		}
	}
	for _, prov := range providers {
		if v, ok := configured(prov); ok {
			s.Add(v)
			if _, given := short[prov]; !given && v != "" && len(v) < MinLength {
				short[prov] = len(v)
			}
		}
	}
	var notes []string
	for _, prov := range slices.Sorted(maps.Keys(short)) {
		n := short[prov]
		notes = append(notes, fmt.Sprintf("the %s secret is %d %s long: too short to be safe, and too short to redact from the output (under %d characters it would garble ordinary words); it is used as given", prov, n, policies.Plural(n, "character", "characters"), MinLength))
	}
	return notes
}
