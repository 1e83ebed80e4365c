package policies

import (
	"encoding/base64"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// standardTolerance is how far webhook-timestamp may be from now before the
// Standard Webhooks libraries reject the request.
const standardTolerance = 5 * time.Minute

// standardWire is the Standard Webhooks scheme: webhook-id,
// webhook-timestamp and webhook-signature ("v1,<base64 HMAC-SHA256 of
// id.timestamp.body>"), a whsec_ secret, a fresh timestamp on every attempt.
// Svix sends the same scheme under svix-* header names.
type standardWire struct {
	name   string // wire name
	prefix string // header prefix: "webhook" or "svix"
	agent  string // User-Agent
}

func init() {
	RegisterWire(standardWire{name: "standard-webhooks", prefix: "webhook", agent: "Standard-Webhooks/1.0"})
}

func (w standardWire) Name() string           { return w.name }
func (standardWire) DefaultEventType() string { return "invoice.paid" }

func (standardWire) NewEvent(ev *Event) {
	r := Key(ev.Seed, 1, 0)
	ev.ID = "msg_" + r.Alnum(27)
}

// standardEvent is the payload shape the Standard Webhooks spec
// recommends; standardData its data object, whose fields follow the type's
// first word. Fields in alphabetical order.
type standardEvent struct {
	Data      standardData `json:"data"`
	Timestamp string       `json:"timestamp"`
	Type      string       `json:"type"`
}

type standardData struct {
	Amount     int    `json:"amount,omitempty"`
	AmountPaid int    `json:"amount_paid,omitempty"`
	CreatedAt  string `json:"created_at"`
	Currency   string `json:"currency,omitempty"`
	CustomerID string `json:"customer_id,omitempty"`
	Email      string `json:"email,omitempty"`
	ID         string `json:"id"`
	Name       string `json:"name,omitempty"`
	Object     string `json:"object"`
	Status     string `json:"status,omitempty"`
}

// Body is {"type", "timestamp", "data"}, the payload shape the Standard
// Webhooks spec recommends. Any event type written as the spec writes them
// is accepted; the data object follows the type's first word. The top-level
// timestamp is when the event happened, the same on every attempt.
func (standardWire) Body(ev Event) ([]byte, string) {
	r := Key(ev.Seed, 2, 0)
	at := ev.Created.UTC().Format("2006-01-02T15:04:05.000000Z07:00")
	family, _, _ := strings.Cut(ev.Type, ".")
	data := standardData{ID: family + "_" + r.Alnum(20), Object: family, CreatedAt: at}
	// The thing the event is about (an invoice's customer; else the data
	// object itself) comes from the event's object when it names one.
	o, hasObject := objectRand(ev, 0x5b)
	switch family {
	case "invoice":
		amount := 500 + r.IntN(200)*100
		data.CustomerID = "cust_" + r.Alnum(16)
		if hasObject {
			data.CustomerID = "cust_" + o.Alnum(16)
		}
		data.Amount, data.AmountPaid, data.Currency, data.Status = amount, amount, "usd", "paid"
	case "user":
		n := r.IntN(10000)
		if hasObject {
			data.ID, n = family+"_"+o.Alnum(20), o.IntN(10000)
		}
		data.Email = "user" + strconv.Itoa(n) + "@example.com"
		data.Name = "Ada Lovelace"
	default:
		if hasObject {
			data.ID = family + "_" + o.Alnum(20)
		}
	}
	return marshalBody(standardEvent{Type: ev.Type, Timestamp: at, Data: data}), "application/json"
}

// CheckSecret refuses what the Standard Webhooks and Svix libraries refuse:
// a secret that is not base64 after its whsec_ prefix, or is empty.
func (w standardWire) CheckSecret(secret string) error {
	b, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, "whsec_"))
	if err != nil || len(b) == 0 {
		return fmt.Errorf("not whsec_ followed by base64, which the %s libraries refuse (the dashboard gives whsec_ and base64)", w.name)
	}
	return nil
}

// validEventType reports whether t is written as a Standard Webhooks or
// Svix event type is: letters, digits, _ and -, in parts joined by full stops
// ("invoice.paid").
func validEventType(t string) bool {
	if t == "" || len(t) > 256 {
		return false
	}
	for _, part := range strings.Split(t, ".") {
		if part == "" {
			return false
		}
		for _, c := range part {
			ok := c == '_' || c == '-' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
			if !ok {
				return false
			}
		}
	}
	return true
}

// CheckEventTypeFormat takes any event type written as the spec and Svix
// write them: letters, digits, _ and - in parts joined by full stops, at
// most 256 characters.
func (w standardWire) CheckEventTypeFormat(t string) error {
	if !validEventType(t) {
		return fmt.Errorf("%w %q for %s (an event type is letters, digits, _ and - in parts joined by full stops, e.g. invoice.paid)", ErrUnknownEventType, t, w.name)
	}
	return nil
}

// standardKey is the signing key a whsec_ secret stands for: the base64
// after the prefix, or the secret's own bytes when it is not base64 (as the
// libraries' raw-key constructors take it).
func standardKey(secret string) string {
	if b, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, "whsec_")); err == nil && len(b) > 0 {
		return string(b)
	}
	return secret
}

func standardSign(secret, id, ts string, body []byte) string {
	return "v1," + hmacBase64(standardKey(secret), []byte(id+"."+ts+"."), body)
}

func (w standardWire) Header(h http.Header, d Delivery) {
	ts := strconv.FormatInt(d.SignedAt.Unix(), 10)
	h.Set("User-Agent", w.agent)
	h.Set(w.prefix+"-id", d.Event.ID)
	h.Set(w.prefix+"-timestamp", ts)
	h.Set(w.prefix+"-signature", standardSign(d.Secret, d.Event.ID, ts, d.Body))
}

func (w standardWire) DedupField() string { return w.prefix + "-id header" }

func (w standardWire) DedupID(h http.Header, _ []byte) (string, error) {
	if id := h.Get(w.prefix + "-id"); id != "" {
		return id, nil
	}
	return "", fmt.Errorf("%s: no %s-id header", w.name, w.prefix)
}

func (w standardWire) Verify(h http.Header, body []byte, _, secret string, now time.Time) error {
	id, ts, sigs := h.Get(w.prefix+"-id"), h.Get(w.prefix+"-timestamp"), h.Get(w.prefix+"-signature")
	if id == "" || ts == "" || sigs == "" {
		return fmt.Errorf("%w: %s-id, %s-timestamp or %s-signature missing", ErrBadSignature, w.prefix, w.prefix, w.prefix)
	}
	want := standardSign(secret, id, ts, body)
	for _, s := range strings.Fields(sigs) {
		if equalSig(s, want) {
			return checkTimestamp(ts, now, standardTolerance)
		}
	}
	return fmt.Errorf("%w: no v1 signature in %s-signature matches", ErrBadSignature, w.prefix)
}
