package policies

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// stripeTolerance is how old a Stripe-Signature timestamp stripe-go accepts.
const stripeTolerance = 300 * time.Second

type stripeWire struct{}

func init() { RegisterWire(stripeWire{}) }

func (stripeWire) Name() string             { return "stripe" }
func (stripeWire) DefaultEventType() string { return "invoice.payment_succeeded" }

func (stripeWire) NewEvent(ev *Event) {
	r := Key(ev.Seed, 1, 0)
	ev.ID = "evt_1" + r.Alnum(23)
}

type stripeEvent struct {
	ID              string        `json:"id"`
	Object          string        `json:"object"`
	APIVersion      string        `json:"api_version"`
	Created         int64         `json:"created"`
	Data            stripeData    `json:"data"`
	Livemode        bool          `json:"livemode"`
	PendingWebhooks int           `json:"pending_webhooks"`
	Request         stripeRequest `json:"request"`
	Type            string        `json:"type"`
}

type stripeData struct {
	Object map[string]any `json:"object"`
}

type stripeRequest struct {
	ID             *string `json:"id"`
	IdempotencyKey *string `json:"idempotency_key"`
}

func (stripeWire) Body(ev Event) ([]byte, string) {
	r := Key(ev.Seed, 2, 0)
	amount := 500 + r.IntN(200)*100
	obj := map[string]any{
		"id":          "in_1" + r.Alnum(23),
		"object":      "invoice",
		"amount_paid": amount,
		"currency":    "usd",
		"customer":    "cus_" + r.Alnum(14),
		"status":      "paid",
		"created":     ev.Created.Unix(),
	}
	reqID := "req_" + r.Alnum(14)
	key := r.UUID()
	body, _ := json.Marshal(stripeEvent{
		ID: ev.ID, Object: "event", APIVersion: "2024-06-20", Created: ev.Created.Unix(),
		Data: stripeData{Object: obj}, PendingWebhooks: 1,
		Request: stripeRequest{ID: &reqID, IdempotencyKey: &key}, Type: ev.Type,
	})
	return body, "application/json; charset=utf-8"
}

func (stripeWire) Header(h http.Header, d Delivery) {
	t := strconv.FormatInt(d.SignedAt.Unix(), 10)
	h.Set("User-Agent", "Stripe/1.0 (+https://stripe.com/docs/webhooks)")
	h.Set("Stripe-Signature", "t="+t+",v1="+hmacHex(d.Secret, []byte(t), []byte("."), d.Body))
}

func (stripeWire) DedupField() string { return `event id in the body ("id": "evt_…")` }

func (stripeWire) DedupID(_ http.Header, body []byte) (string, error) {
	var ev struct {
		ID string `json:"id"`
	}
	if err := json.Unmarshal(body, &ev); err != nil || ev.ID == "" {
		return "", fmt.Errorf("stripe: no event id in body")
	}
	return ev.ID, nil
}

func (stripeWire) Verify(h http.Header, body []byte, _, secret string, now time.Time) error {
	var ts string
	var sigs []string
	for _, part := range strings.Split(h.Get("Stripe-Signature"), ",") {
		k, v, _ := strings.Cut(part, "=")
		switch k {
		case "t":
			ts = v
		case "v1":
			sigs = append(sigs, v)
		}
	}
	if ts == "" || len(sigs) == 0 {
		return fmt.Errorf("%w: Stripe-Signature header missing or malformed", ErrBadSignature)
	}
	want := hmacHex(secret, []byte(ts), []byte("."), body)
	for _, s := range sigs {
		if equalSig(s, want) {
			return checkTimestamp(ts, now, stripeTolerance)
		}
	}
	return fmt.Errorf("%w: no v1 signature matches", ErrBadSignature)
}
