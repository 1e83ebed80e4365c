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

// stripeTypes are the event types the Stripe wire sends, the default first.
var stripeTypes = []string{
	"invoice.payment_succeeded", "invoice.paid", "invoice.payment_failed",
	"payment_intent.succeeded", "payment_intent.payment_failed",
	"charge.succeeded", "charge.refunded",
	"checkout.session.completed",
	"customer.subscription.created", "customer.subscription.deleted",
	"customer.created",
}

func (stripeWire) EventTypes() []string { return stripeTypes }

// stripeObject builds the event's data.object for its type. The customer
// and subscription come from the event's object when it names one; every
// other id, amount and timestamp comes from the event's seed, and they agree
// with one another: the invoice's payment intent and charge, the customer,
// the amounts paid and captured.
func stripeObject(ev Event) map[string]any {
	r := Key(ev.Seed, 2, 0)
	amount := 500 + r.IntN(200)*100
	created := ev.Created.Unix()
	cus := "cus_" + r.Alnum(14)
	inv := "in_1" + r.Alnum(23)
	pi := "pi_3" + r.Alnum(23)
	ch := "ch_3" + r.Alnum(23)
	sub := "sub_1" + r.Alnum(23)
	email := -1
	if o, ok := objectRand(ev, 0x57); ok {
		// The event is about one customer (and the subscription it pays
		// for): the same ids on every event about it.
		cus, sub, email = "cus_"+o.Alnum(14), "sub_1"+o.Alnum(23), o.IntN(10000)
	}
	family, action, _ := strings.Cut(ev.Type, ".")
	if family == "customer" && strings.HasPrefix(action, "subscription.") {
		family, action = "subscription", strings.TrimPrefix(action, "subscription.")
	}
	if family == "checkout" {
		family, action = "checkout.session", strings.TrimPrefix(action, "session.")
	}
	failed := strings.HasSuffix(action, "failed")
	switch family {
	case "invoice":
		paid := amount
		status := "paid"
		if failed {
			paid, status = 0, "open"
		}
		return map[string]any{
			"id": inv, "object": "invoice", "customer": cus, "subscription": sub, "payment_intent": pi,
			"charge": ch, "amount_due": amount, "amount_paid": paid, "amount_remaining": amount - paid,
			"currency": "usd", "status": status, "paid": !failed, "billing_reason": "subscription_cycle",
			"attempt_count": 1, "created": created - 3600, "livemode": false,
		}
	case "payment_intent":
		status, received := "succeeded", amount
		if failed {
			status, received = "requires_payment_method", 0
		}
		return map[string]any{
			"id": pi, "object": "payment_intent", "amount": amount, "amount_received": received,
			"currency": "usd", "customer": cus, "invoice": inv, "latest_charge": ch, "status": status,
			"created": created - 2, "livemode": false,
		}
	case "charge":
		refunded := action == "refunded"
		amountRefunded := 0
		if refunded {
			amountRefunded = amount
		}
		return map[string]any{
			"id": ch, "object": "charge", "amount": amount, "amount_captured": amount,
			"amount_refunded": amountRefunded, "refunded": refunded, "captured": true, "paid": true,
			"currency": "usd", "customer": cus, "payment_intent": pi, "invoice": inv, "status": "succeeded",
			"created": created - 1, "livemode": false,
		}
	case "checkout.session":
		return map[string]any{
			"id": "cs_test_" + r.Alnum(58), "object": "checkout.session", "amount_total": amount,
			"amount_subtotal": amount, "currency": "usd", "customer": cus, "payment_intent": pi,
			"mode": "payment", "payment_status": "paid", "status": "complete",
			"created": created - 120, "livemode": false,
		}
	case "subscription":
		status := "active"
		if action == "deleted" {
			status = "canceled"
		}
		return map[string]any{
			"id": sub, "object": "subscription", "customer": cus, "status": status,
			"latest_invoice": inv, "currency": "usd",
			"items": map[string]any{"object": "list", "data": []any{map[string]any{
				"id": "si_" + r.Alnum(14), "object": "subscription_item", "quantity": 1,
				"price": map[string]any{"id": "price_1" + r.Alnum(23), "object": "price", "unit_amount": amount, "currency": "usd", "recurring": map[string]any{"interval": "month"}},
			}}},
			"current_period_start": created, "current_period_end": created + 30*86400,
			"created": created - 1, "livemode": false,
		}
	default: // customer
		if email < 0 {
			email = r.IntN(10000)
		}
		return map[string]any{
			"id": cus, "object": "customer", "email": fmt.Sprintf("customer%d@example.com", email),
			"currency": "usd", "created": created - 1, "livemode": false,
		}
	}
}

func (stripeWire) Body(ev Event) ([]byte, string) {
	r := Key(ev.Seed, 4, 0)
	reqID := "req_" + r.Alnum(14)
	key := r.UUID()
	body, _ := json.Marshal(stripeEvent{
		ID: ev.ID, Object: "event", APIVersion: "2024-06-20", Created: ev.Created.Unix(),
		Data: stripeData{Object: stripeObject(ev)}, PendingWebhooks: 1,
		Request: stripeRequest{ID: &reqID, IdempotencyKey: &key}, Type: ev.Type,
	})
	return body, "application/json; charset=utf-8"
}

func (stripeWire) Header(h http.Header, d Delivery) {
	t := strconv.FormatInt(d.SignedAt.Unix(), 10)
	h.Set("User-Agent", "Stripe/1.0 (+https://stripe.com/docs/webhooks)")
	h.Set("Accept", "*/*; q=0.5, application/xml")
	h.Set("Cache-Control", "no-cache")
	h.Set("Stripe-Signature", "t="+t+",v1="+hmacHex(d.Secret, []byte(t), []byte("."), d.Body))
}

func (stripeWire) NewSecret(r *Rand) string { return "whsec_" + r.Alnum(32) }

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
