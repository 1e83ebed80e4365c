package policies

import (
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// standardV1aWire is the Standard Webhooks asymmetric scheme: the headers,
// payload and timestamp of standardWire, but webhook-signature carries
// "v1a,<base64 Ed25519 signature of id.timestamp.body>" made with the
// sender's whsk_ private key, and the receiver holds the whpk_ public key.
// The reference Go library signs and verifies it with
// NewWebhookAsymmetric (at its repository's head; the v0.0.1 the Go module
// proxy serves has only v1).
type standardV1aWire struct{ standardWire }

func init() {
	RegisterWire(standardV1aWire{standardWire{name: "standard-webhooks-v1a", prefix: "webhook", agent: "Standard-Webhooks/1.0"}})
}

// Standard Webhooks' key prefixes: whsk_ before a base64 private key (the
// Ed25519 seed), whpk_ before a base64 public key.
const (
	standardPrivatePrefix = "whsk_"
	standardPublicPrefix  = "whpk_"
)

// StandardV1aKey derives the Ed25519 key pair a v1a secret stands for:
// whsk_ (optional) before the base64 of a 32-byte seed, as the reference
// libraries take it; any other text is hashed to a seed.
func StandardV1aKey(secret string) ed25519.PrivateKey {
	seed, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, standardPrivatePrefix))
	if err != nil || len(seed) != ed25519.SeedSize {
		sum := sha256.Sum256([]byte(secret))
		seed = sum[:]
	}
	return ed25519.NewKeyFromSeed(seed)
}

func (standardV1aWire) NewSecret(r *Rand) string {
	b := make([]byte, ed25519.SeedSize)
	r.fill(b)
	return standardPrivatePrefix + base64.StdEncoding.EncodeToString(b)
}

// CheckSecret refuses what the reference libraries cannot sign with: a
// secret that is not base64 of a 32-byte seed after its whsk_ prefix.
func (w standardV1aWire) CheckSecret(secret string) error {
	b, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, standardPrivatePrefix))
	if err != nil || len(b) != ed25519.SeedSize {
		return fmt.Errorf("not whsk_ followed by the base64 of a 32-byte Ed25519 seed, which the %s libraries sign with", w.name)
	}
	return nil
}

// PublicKey is the whpk_ key the receiver is configured with.
func (standardV1aWire) PublicKey(secret string) string {
	return standardPublicPrefix + base64.StdEncoding.EncodeToString(StandardV1aKey(secret).Public().(ed25519.PublicKey))
}

// KeyNote says where the public key goes.
func (standardV1aWire) KeyNote() string {
	return "it stands for the sender's whpk_ public key, which the Standard Webhooks libraries' asymmetric verifier takes (NewWebhookAsymmetric in Go)"
}

// standardV1aSign is "v1a," and the base64 Ed25519 signature of
// id.timestamp.body.
func standardV1aSign(secret, id, ts string, body []byte) string {
	msg := make([]byte, 0, len(id)+len(ts)+2+len(body))
	msg = append(append(append(append(append(msg, id...), '.'), ts...), '.'), body...)
	return "v1a," + base64.StdEncoding.EncodeToString(ed25519.Sign(StandardV1aKey(secret), msg))
}

func (w standardV1aWire) Header(h http.Header, d Delivery) {
	ts := strconv.FormatInt(d.SignedAt.Unix(), 10)
	h.Set("User-Agent", w.agent)
	h.Set(w.prefix+"-id", d.Event.ID)
	h.Set(w.prefix+"-timestamp", ts)
	h.Set(w.prefix+"-signature", standardV1aSign(d.Secret, d.Event.ID, ts, d.Body))
}

// Verify checks each v1a signature in webhook-signature with the public
// key, as the reference libraries do, and the timestamp's age.
func (w standardV1aWire) Verify(h http.Header, body []byte, _, secret string, now time.Time) error {
	id, ts, sigs := h.Get(w.prefix+"-id"), h.Get(w.prefix+"-timestamp"), h.Get(w.prefix+"-signature")
	if id == "" || ts == "" || sigs == "" {
		return fmt.Errorf("%w: %s-id, %s-timestamp or %s-signature missing", ErrBadSignature, w.prefix, w.prefix, w.prefix)
	}
	pub := StandardV1aKey(secret).Public().(ed25519.PublicKey)
	msg := []byte(id + "." + ts + "." + string(body))
	for _, s := range strings.Fields(sigs) {
		v, b64, _ := strings.Cut(s, ",")
		sig, err := base64.StdEncoding.DecodeString(b64)
		if v == "v1a" && err == nil && ed25519.Verify(pub, msg, sig) {
			return checkTimestamp(ts, now, standardTolerance)
		}
	}
	return fmt.Errorf("%w: no v1a signature in %s-signature verifies", ErrBadSignature, w.prefix)
}

// standardSigVersions reports whether the signature header names version
// v ("v1", "v1a") among its signatures.
func standardSigVersions(sigs, v string) bool {
	for _, s := range strings.Fields(sigs) {
		if strings.HasPrefix(s, v+",") {
			return true
		}
	}
	return false
}

// Claims: a v1a delivery carries a v1a signature.
func (w standardV1aWire) Claims(h http.Header, _ []byte) bool {
	return standardSigVersions(h.Get(w.prefix+"-signature"), "v1a")
}

// Claims: a v1 delivery carries a v1 signature.
func (w standardWire) Claims(h http.Header, _ []byte) bool {
	return standardSigVersions(h.Get(w.prefix+"-signature"), "v1")
}
