package policies

import (
	"encoding/base64"
	"hash/fnv"
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
// Webhooks secret, whsec_ and 24 random bytes in base64.
func GenerateSecret(provider string, seed uint64) string {
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
