package policies

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
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
	ev.ID = r.alnumID("evt_1", 23)
}

type stripeEvent struct {
	ID              string        `json:"id"`
	Object          string        `json:"object"`
	Account         string        `json:"account,omitempty"` // a Connect event's connected account
	APIVersion      string        `json:"api_version"`
	Created         int64         `json:"created"`
	Data            stripeData    `json:"data"`
	Livemode        bool          `json:"livemode"`
	PendingWebhooks int           `json:"pending_webhooks"`
	Request         stripeRequest `json:"request"`
	Type            string        `json:"type"`
}

type stripeData struct {
	Object any `json:"object"`
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

// APIVersions lists the API versions the Stripe wire writes, the current
// one first.
func (stripeWire) APIVersions() []string {
	return []string{stripeVersion, stripeDahliaVersion, stripeLegacyVersion}
}

func (stripeWire) Body(ev Event) ([]byte, string) {
	const ctype = "application/json; charset=utf-8"
	e := stripeEvent{
		ID: ev.ID, Object: "event", APIVersion: stripeVersion, Created: ev.Created.Unix(),
		PendingWebhooks: 1, Type: ev.Type, Account: ev.Tenant,
	}
	switch ev.Version {
	case stripeLegacyVersion:
		e.APIVersion, e.Data.Object = stripeLegacyVersion, stripeObject2024(ev)
	case stripeDahliaVersion:
		e.APIVersion, e.Data.Object = stripeDahliaVersion, stripeObject(ev)
	default:
		e.Data.Object = stripeObject(ev)
	}
	// The request's id and idempotency key are drawn from their own Rand,
	// in this order.
	r := Key(ev.Seed, 4, 0)
	if obj, ok := e.Data.Object.(stripeAppender); ok {
		w := jsonw{b: make([]byte, 0, max(stripeBodyCap.Load(), 512))}
		e.appendTo(&w, obj, &r)
		if n := int64(len(w.b)); n > stripeBodyCap.Load() {
			stripeBodyCap.Store(n)
		}
		return w.b, ctype
	}
	reqID := r.alnumID("req_", 14)
	key := r.UUID()
	e.Request = stripeRequest{ID: &reqID, IdempotencyKey: &key}
	return marshalBody(e), ctype
}

// stripeBodyCap is the longest Stripe body written so far, the room made
// for the next: a body is kept until its event is over, and an invoice's
// (about 720 bytes) takes 768 where a fixed 1 KB took 1,024.
var stripeBodyCap atomic.Int64

func (stripeWire) Header(h http.Header, d Delivery) {
	// t=<unix>,v1=<hex HMAC of "<unix>.<body>">, built in one buffer.
	var buf [96]byte
	b := unixSeconds(append(buf[:0], "t="...), d.SignedAt)
	t := b[2:]
	b = appendHMACHex(append(b, ",v1="...), d.Secret, t, dot, d.Body)
	setHeaders(h, "User-Agent", "Stripe/1.0 (+https://stripe.com/docs/webhooks)",
		"Accept", "*/*; q=0.5, application/xml",
		"Cache-Control", "no-cache",
		"Stripe-Signature", string(b))
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
