package policies

import (
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"time"
)

// discordTolerance is how far X-Signature-Timestamp may be from now before
// a careful handler rejects the request. Discord documents no bound and its
// libraries check none (an inference: a handler that bounds it as Slack's
// and Stripe's verifiers do is safe from replays older than that).
const discordTolerance = 5 * time.Minute

type discordWire struct{}

func init() { RegisterWire(discordWire{}) }

func (discordWire) Name() string             { return "discord" }
func (discordWire) DefaultEventType() string { return "APPLICATION_COMMAND" }

// discordInteractions maps the interaction types the Discord wire sends to
// Discord's numbers.
var discordInteractions = map[string]int{
	"PING": 1, "APPLICATION_COMMAND": 2, "MESSAGE_COMPONENT": 3, "APPLICATION_COMMAND_AUTOCOMPLETE": 4, "MODAL_SUBMIT": 5,
}

// discordEvents are the webhook event types (not interactions) the Discord
// wire sends; each carries the entitlement whose id is the dedup id.
var discordEvents = []string{"ENTITLEMENT_CREATE", "ENTITLEMENT_UPDATE", "ENTITLEMENT_DELETE"}

func (discordWire) EventTypes() []string {
	return []string{"APPLICATION_COMMAND", "PING", "MESSAGE_COMPONENT", "APPLICATION_COMMAND_AUTOCOMPLETE", "MODAL_SUBMIT",
		"ENTITLEMENT_CREATE", "ENTITLEMENT_UPDATE", "ENTITLEMENT_DELETE"}
}

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

func (discordWire) NewSecret(r *Rand) string { return r.Hex(ed25519.SeedSize) }

// PublicKey is the hex public key a Discord application's settings hold, for
// the key pair of secret.
func (discordWire) PublicKey(secret string) string {
	return hex.EncodeToString(DiscordKey(secret).Public().(ed25519.PublicKey))
}

func (discordWire) NewEvent(ev *Event) {
	r := Key(ev.Seed, 1, 0)
	ev.ID = strconv.FormatUint(1<<60|r.Uint64()>>4, 10)
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

func (discordWire) Body(ev Event) ([]byte, string) {
	r := Key(ev.Seed, 2, 0)
	if slices.Contains(discordEvents, ev.Type) {
		user := discordUser(ev, &r)
		body, _ := json.Marshal(map[string]any{
			"version": 1, "application_id": discordApp, "type": 1,
			"event": map[string]any{
				"type": ev.Type, "timestamp": ev.Created.UTC().Format("2006-01-02T15:04:05.000000Z07:00"),
				"data": map[string]any{
					"id": ev.ID, "sku_id": "1300000000000000003", "application_id": discordApp,
					"user_id": user, "type": 8, "deleted": ev.Type == "ENTITLEMENT_DELETE",
					"starts_at": nil, "ends_at": nil, "consumed": false,
				},
			},
		})
		return body, "application/json"
	}
	typ := discordInteractions[ev.Type]
	if typ == 0 {
		typ = 2
	}
	token := r.Alnum(40)
	in := map[string]any{
		"id": ev.ID, "application_id": discordApp, "type": typ, "token": token, "version": 1,
		"guild_id": "1200000000000000002", "channel_id": "1200000000000000009",
		"member": map[string]any{"user": map[string]any{"id": discordUser(ev, &r), "username": "ada"}},
	}
	switch typ {
	case 1:
		delete(in, "member")
		delete(in, "guild_id")
		delete(in, "channel_id")
	case 3:
		in["data"] = map[string]any{"custom_id": "confirm_order", "component_type": 2}
	case 5:
		in["data"] = map[string]any{"custom_id": "feedback", "components": []any{}}
	default:
		in["data"] = map[string]any{"id": "1400000000000000004", "name": "redeem", "type": 1}
	}
	body, _ := json.Marshal(in)
	return body, "application/json"
}

func (discordWire) Header(h http.Header, d Delivery) {
	ts := strconv.FormatInt(d.SignedAt.Unix(), 10)
	sig := ed25519.Sign(DiscordKey(d.Secret), append([]byte(ts), d.Body...))
	h.Set("User-Agent", "Discord-Interactions/1.0 (+https://discord.com)")
	h.Set("X-Signature-Timestamp", ts)
	h.Set("X-Signature-Ed25519", hex.EncodeToString(sig))
}

func (discordWire) DedupField() string {
	return "interaction id in the body (webhook events: event.data.id)"
}

func (discordWire) DedupID(_ http.Header, body []byte) (string, error) {
	var ev struct {
		ID    string `json:"id"`
		Event struct {
			Data struct {
				ID string `json:"id"`
			} `json:"data"`
		} `json:"event"`
	}
	if err := json.Unmarshal(body, &ev); err == nil {
		if ev.ID != "" {
			return ev.ID, nil
		}
		if ev.Event.Data.ID != "" {
			return ev.Event.Data.ID, nil
		}
	}
	return "", fmt.Errorf("discord: no interaction id or event.data.id in body")
}

// Verify checks the Ed25519 signature and, as a careful handler does, that
// the timestamp is within discordTolerance of now.
func (discordWire) Verify(h http.Header, body []byte, _, secret string, now time.Time) error {
	sig, err := hex.DecodeString(h.Get("X-Signature-Ed25519"))
	ts := h.Get("X-Signature-Timestamp")
	if err != nil || len(sig) != ed25519.SignatureSize || ts == "" {
		return fmt.Errorf("%w: X-Signature-Ed25519 or X-Signature-Timestamp missing", ErrBadSignature)
	}
	pub := DiscordKey(secret).Public().(ed25519.PublicKey)
	if !ed25519.Verify(pub, append([]byte(ts), body...), sig) {
		return fmt.Errorf("%w: Ed25519 signature does not verify", ErrBadSignature)
	}
	return checkTimestamp(ts, now, discordTolerance)
}
