package advice

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/retrysim/retrysim/policies"
	"github.com/retrysim/retrysim/policies/configfile"
)

// Secrets reads --secret's provider=value pairs (policies.ParseSecrets),
// naming the bad pair by its place: "--secret #2: …". Error messages never
// repeat the value.
func Secrets(pairs []string) (map[string]string, error) {
	out, err := policies.ParseSecrets(pairs)
	if pe := (*policies.SecretPairError)(nil); errors.As(err, &pe) {
		return nil, fmt.Errorf("--secret #%d: %w", pe.Index, pe.Err)
	}
	return out, err
}

// SecretsNotRun refuses a --secret for a provider the command does not
// run (policies.SecretsNotRun): the user meant it for a run, and without
// --provider (providerGiven false) the default one would get deliveries
// signed with a secret of its own, and answer them all 4xx.
func SecretsNotRun(secrets map[string]string, pols []policies.Policy, providerGiven bool) []error {
	others, names := policies.SecretsNotRun(secrets, pols)
	var errs []error
	for _, prov := range others {
		hint := fmt.Sprintf("add --provider %s", prov)
		if !providerGiven {
			hint = fmt.Sprintf("--provider is not given, so the default is run; add --provider %s", prov)
		}
		errs = append(errs, fmt.Errorf("--secret %s=…: %s is not among the providers this run replays (%s); %s",
			prov, prov, strings.Join(names, ", "), hint))
	}
	return errs
}

// TellSecret writes to w what the user needs of provider's secret for a
// run against their handler: with generated, the secret generated from
// seed (a private key for providers that sign with one), and for those,
// the public key the handler verifies with. A secret the user gave is
// never written.
func TellSecret(w io.Writer, provider, secret string, generated bool, seed uint64) {
	pub, keyed := policies.PublicKey(provider, secret)
	switch {
	case generated && keyed:
		// The handler needs only the public key: the private one is
		// printed so the user can pass it back with --secret.
		fmt.Fprintf(w, "retrysim: no private key given for %s (--secret %s=…, %s, or secrets: in %s): signing with one generated from --seed %d:\n  %s\n  (the same seed gives the same key; your handler does not need it)\n",
			provider, provider, configfile.SecretEnv(provider), configfile.Name, seed, secret)
	case generated:
		fmt.Fprintf(w, "retrysim: no secret given for %s (--secret %s=…, %s, or secrets: in %s): signing with one generated from --seed %d:\n  %s\n  configure your handler with it; the same seed gives the same secret\n",
			provider, provider, configfile.SecretEnv(provider), configfile.Name, seed, secret)
	}
	if keyed {
		fmt.Fprintf(w, "retrysim: %s signs with a private key; configure your handler to verify with this public key:\n  %s\n", provider, strings.TrimSpace(strings.ReplaceAll(pub, "\n", "\n  ")))
		if note := policies.PublicKeyNote(provider); note != "" {
			fmt.Fprintf(w, "  (%s)\n", note)
		}
	}
}
