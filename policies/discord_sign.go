package policies

import (
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"strconv"
	"time"
)

// discordSigner is the Ed25519 scheme both of Discord's products sign with:
// X-Signature-Ed25519 (hex) over X-Signature-Timestamp followed by the body,
// with the application's key pair. Discord documents no bound on the
// timestamp's age and its libraries (discord-interactions'
// verifyKey) check none, so the scheme has no tolerance: a replay is a
// dedup matter, and bounding the timestamp is advice, not a requirement.
type discordSigner struct{}

// discordApp is the simulated application's id.
const discordApp = "1100000000000000001"

// DiscordKey derives the Ed25519 key pair for a secret: a 64-digit hex
// secret is the private key's seed, a 128-digit one the whole private key
// (seed and public key, as Go and libsodium write it); any other text is
// hashed to a seed.
func DiscordKey(secret string) ed25519.PrivateKey {
	seed, err := hex.DecodeString(secret)
	switch {
	case err == nil && len(seed) == ed25519.SeedSize:
	case err == nil && len(seed) == ed25519.PrivateKeySize:
		seed = seed[:ed25519.SeedSize]
	default:
		sum := sha256.Sum256([]byte(secret))
		seed = sum[:]
	}
	return ed25519.NewKeyFromSeed(seed)
}

func (discordSigner) NewSecret(r *Rand) string { return r.Hex(ed25519.SeedSize) }

// PublicKey is the hex public key a Discord application's settings hold, for
// the key pair of secret.
func (discordSigner) PublicKey(secret string) string {
	return hex.EncodeToString(DiscordKey(secret).Public().(ed25519.PublicKey))
}

// KeyNote says where the public key goes.
func (discordSigner) KeyNote() string {
	return "it stands for the public key in your Discord application's settings (General Information), which discord-interactions' verifyKey takes"
}

func (discordSigner) Scheme() Scheme {
	return Scheme{Headers: []string{"X-Signature-Ed25519"}, Timestamp: "X-Signature-Timestamp", AdvisedTolerance: advisedTolerance}
}

// advisedTolerance is the bound on a signed timestamp's age that is good
// practice where a provider signs one but neither documents nor checks a
// bound (Discord's X-Signature-Timestamp, Zoom's x-zm-request-timestamp):
// the one Slack's and Stripe's verifiers use.
const advisedTolerance = 5 * time.Minute

func (discordSigner) Header(h http.Header, d Delivery) {
	var buf [20]byte
	ts := strconv.AppendInt(buf[:0], d.SignedAt.Unix(), 10)
	msg := make([]byte, 0, len(ts)+len(d.Body))
	msg = append(append(msg, ts...), d.Body...)
	sig := ed25519.Sign(DiscordKey(d.Secret), msg)
	h.Set("User-Agent", "Discord-Interactions/1.0 (+https://discord.com)")
	h.Set("X-Signature-Timestamp", string(ts))
	h.Set("X-Signature-Ed25519", hex.EncodeToString(sig))
}

// Verify checks the Ed25519 signature, as discord-interactions' verifyKey
// does: the timestamp is signed, but its age is not checked.
func (discordSigner) Verify(h http.Header, body []byte, _, secret string, _ time.Time) error {
	sig, err := hex.DecodeString(h.Get("X-Signature-Ed25519"))
	ts := h.Get("X-Signature-Timestamp")
	if err != nil || len(sig) != ed25519.SignatureSize || ts == "" {
		return fmt.Errorf("%w: X-Signature-Ed25519 or X-Signature-Timestamp missing", ErrBadSignature)
	}
	pub := DiscordKey(secret).Public().(ed25519.PublicKey)
	if !ed25519.Verify(pub, append([]byte(ts), body...), sig) {
		return fmt.Errorf("%w: Ed25519 signature does not verify", ErrBadSignature)
	}
	return nil
}

// discordUser is the user an event is about (the member who interacted, the
// owner of the entitlement): from the event's object when it names one, so
// every event about them carries their id; else drawn from r.
func discordUser(ev Event, r *Rand) string {
	id := strconv.FormatUint(1<<59|r.Uint64()>>5, 10)
	if o, ok := objectRand(ev, 0xd1); ok {
		id = strconv.FormatUint(1<<59|o.Uint64()>>5, 10)
	}
	return id
}

// discordSnowflake is a Discord id drawn from r.
func discordSnowflake(r *Rand) string { return strconv.FormatUint(1<<60|r.Uint64()>>4, 10) }
