package main

import (
	"context"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/retrysim/retrysim/policies"
	"github.com/retrysim/retrysim/report/redact"
)

type secretsKey struct{}

// withSecrets carries the command line's secret set to the commands.
func withSecrets(ctx context.Context, s *redact.Set) context.Context {
	return context.WithValue(ctx, secretsKey{}, s)
}

// secretsOf returns the secret set of a command's context, or nil (whose
// add does nothing) when there is none.
func secretsOf(ctx context.Context) *redact.Set {
	if ctx == nil {
		return nil
	}
	s, _ := ctx.Value(secretsKey{}).(*redact.Set)
	return s
}

// secretValues returns the value part of every --secret provider=value
// given, well-formed or not, so that it is redacted before anything is
// checked.
func secretValues(pairs []string) []string {
	out := make([]string, 0, len(pairs))
	for _, p := range pairs {
		if _, v, ok := strings.Cut(p, "="); ok {
			out = append(out, v)
		} else {
			out = append(out, p)
		}
	}
	return out
}

// redactGiven registers the secrets the user gave, which must never be
// written: --secret values (well-formed or not), RETRYSIM_SECRET_<PROVIDER>
// and the config file's secrets. Generated secrets are not secret: they are
// printed on purpose. A secret too short to redact is named on w by its
// provider and length, never its value.
func (st *settings) redactGiven(ctx context.Context, w io.Writer, flagPairs []string) {
	s := secretsOf(ctx)
	s.Add(secretValues(flagPairs)...)
	short := map[string]int{}
	for _, p := range flagPairs {
		// A pair without a provider is parseSecrets' to report.
		if prov, v, ok := strings.Cut(p, "="); ok && strings.TrimSpace(prov) != "" && v != "" && len(v) < redact.MinLength {
			short[prov] = len(v)
		}
	}
	for _, prov := range policies.WireNames() {
		if v, ok := st.secret(prov); ok {
			s.Add(v)
			if _, given := short[prov]; !given && v != "" && len(v) < redact.MinLength {
				short[prov] = len(v)
			}
		}
	}
	for _, prov := range slices.Sorted(maps.Keys(short)) {
		fmt.Fprintf(w, "retrysim: the %s secret is %d %s long: too short to be safe, and too short to redact from the output (under %d characters it would garble ordinary words); it is used as given\n", prov, short[prov], policies.Plural(short[prov], "character", "characters"), redact.MinLength)
	}
}
