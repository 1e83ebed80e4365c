package main

import (
	"context"
	"fmt"
	"io"

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

// redactGiven registers the secrets the user gave, which must never be
// written: --secret values (well-formed or not), RETRYSIM_SECRET_<PROVIDER>
// and the config file's secrets (redact.Set.AddGiven), and says on w which
// are too short to redact.
func (st *settings) redactGiven(ctx context.Context, w io.Writer, flagPairs []string) {
	for _, note := range secretsOf(ctx).AddGiven(flagPairs, policies.WireNames(), st.secret) {
		fmt.Fprintf(w, "retrysim: %s\n", note)
	}
}
