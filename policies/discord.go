package policies

import (
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"time"
)

type discordWire struct{}

func init() { RegisterWire(discordWire{}) }

func (discordWire) Name() string             { return "discord" }
func (discordWire) DefaultEventType() string { return "APPLICATION_COMMAND" }

// DiscordKey derives the Ed25519 key pair for a secret: a 64-digit hex
// secret is the private key's seed; any other text is hashed to one.
func DiscordKey(secret string) ed25519.PrivateKey {
	seed, err := hex.DecodeString(secret)
	if err != nil || len(seed) != ed25519.SeedSize {
		sum := sha256.Sum256([]byte(secret))
		seed = sum[:]
	}
	return ed25519.NewKeyFromSeed(seed)
}

func (discordWire) NewEvent(ev *Event) {
	r := Key(ev.Seed, 1, 0)
	ev.ID = strconv.FormatUint(1<<60|r.Uint64()>>4, 10)
}

func (discordWire) Body(ev Event) ([]byte, string) {
	r := Key(ev.Seed, 2, 0)
	body, _ := json.Marshal(map[string]any{
		"id":             ev.ID,
		"application_id": "1100000000000000001",
		"type":           2,
		"token":          r.Alnum(40),
		"version":        1,
		"data":           map[string]any{"name": "redeem", "type": 1},
		"guild_id":       "1200000000000000002",
	})
	return body, "application/json"
}

func (discordWire) Header(h http.Header, d Delivery) {
	ts := strconv.FormatInt(d.SignedAt.Unix(), 10)
	sig := ed25519.Sign(DiscordKey(d.Secret), append([]byte(ts), d.Body...))
	h.Set("User-Agent", "Discord-Interactions/1.0 (+https://discord.com)")
	h.Set("X-Signature-Timestamp", ts)
	h.Set("X-Signature-Ed25519", hex.EncodeToString(sig))
}

func (discordWire) DedupField() string { return "interaction id in the body" }

func (discordWire) DedupID(_ http.Header, body []byte) (string, error) {
	var ev struct {
		ID string `json:"id"`
	}
	if err := json.Unmarshal(body, &ev); err != nil || ev.ID == "" {
		return "", fmt.Errorf("discord: no interaction id in body")
	}
	return ev.ID, nil
}

func (discordWire) Verify(h http.Header, body []byte, _, secret string, _ time.Time) error {
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
