package policies

import (
	"encoding/base64"
	"errors"
	"fmt"
	"hash/fnv"
	"slices"
)

// SecretMaker is implemented by wire formats whose secrets have a shape of
// their own (Stripe's whsec_…, a Twilio auth token, a Discord key seed).
type SecretMaker interface {
	// NewSecret makes a secret from r.
	NewSecret(r *Rand) string
}

// PublicKeyer is implemented by wire formats that sign with a private key
// (Discord's Ed25519, PayPal's RSA): the handler is configured with the
// public key, not the secret.
type PublicKeyer interface {
	// PublicKey returns the public key, as the handler's configuration
	// holds it, of the key pair the secret stands for.
	PublicKey(secret string) string
}

// GenerateSecret makes the signing secret for provider from seed: the same
// seed gives the same secret, so a handler configured once keeps working
// run after run. Wire formats without a shape of their own get a Standard
// Webhooks secret, whsec_ and 24 random bytes in base64. Wire formats that
// share a secret (SecretName) get the same one.
func GenerateSecret(provider string, seed uint64) string {
	provider = SecretName(provider)
	h := fnv.New64a()
	h.Write([]byte(provider))
	r := Key(seed, h.Sum64(), 0x5ec7e7)
	if w, ok := WireFor(provider); ok {
		if m, ok := w.(SecretMaker); ok {
			return m.NewSecret(&r)
		}
	}
	b := make([]byte, 24)
	r.fill(b)
	return "whsec_" + base64.StdEncoding.EncodeToString(b)
}

// PublicKey returns the public key a handler needs to verify provider's
// requests signed with secret, and false for providers that sign with a
// shared secret.
func PublicKey(provider, secret string) (string, bool) {
	w, ok := WireFor(provider)
	if !ok {
		return "", false
	}
	if k, ok := w.(PublicKeyer); ok {
		return k.PublicKey(secret), true
	}
	return "", false
}

// SecretChecker is implemented by wire formats whose providers' libraries
// refuse a secret of the wrong shape (the Standard Webhooks and Svix
// libraries want whsec_ and base64).
type SecretChecker interface {
	// CheckSecret reports why the provider's libraries would refuse
	// secret, nil when they take it. The message never repeats the secret.
	CheckSecret(secret string) error
}

// ErrBadSecret is returned, wrapped, for a secret a provider's libraries
// would refuse.
var ErrBadSecret = errors.New("unusable secret")

// CheckSecret reports why provider's libraries would refuse secret, nil
// when they take it (or provider has no rule).
func CheckSecret(provider, secret string) error {
	w, ok := WireFor(provider)
	if !ok {
		return nil
	}
	if c, ok := w.(SecretChecker); ok {
		if err := c.CheckSecret(secret); err != nil {
			return fmt.Errorf("%w for %s: %w", ErrBadSecret, provider, err)
		}
	}
	return nil
}

// KeyNoter is implemented by wire formats that sign with a private key and
// have more to say about the public key than the key itself (PayPal's
// certificate URL).
type KeyNoter interface {
	// KeyNote says how a handler uses the public key.
	KeyNote() string
}

// PublicKeyNote is what a handler author needs to know beside provider's
// public key, "" when nothing.
func PublicKeyNote(provider string) string {
	if w, ok := WireFor(provider); ok {
		if n, ok := w.(KeyNoter); ok {
			return n.KeyNote()
		}
	}
	return ""
}

// SecretSharer is implemented by wire formats that sign with another
// wire's secret: Discord's webhook events and interactions are signed with
// the one key pair of the application.
type SecretSharer interface {
	// SecretOf names the wire whose secret this one signs with.
	SecretOf() string
}

// SecretName names the provider whose secret provider signs with: itself,
// or the one it shares a secret with (discord-events: discord).
func SecretName(provider string) string {
	if w, ok := WireFor(provider); ok {
		if s, ok := w.(SecretSharer); ok {
			return s.SecretOf()
		}
	}
	return provider
}

// SecretsNotRun returns the providers of secrets, sorted, that none of
// pols signs with (a provider that signs with another's key,
// discord-events with discord's, takes that one's secret), and the
// providers pols run, in order, once each: a secret given for a provider
// a run does not replay was meant for another run.
func SecretsNotRun(secrets map[string]string, pols []Policy) (unused, run []string) {
	signs := map[string]bool{}
	for _, p := range pols {
		if !slices.Contains(run, p.Provider) {
			run = append(run, p.Provider)
		}
		signs[p.Provider], signs[SecretName(p.Provider)] = true, true
	}
	for prov := range secrets {
		if !signs[prov] {
			unused = append(unused, prov)
		}
	}
	slices.Sort(unused)
	return unused, run
}
