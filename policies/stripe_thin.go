package policies

import (
	"encoding/json"
	"net/http"
	"strings"
	"time"
)

// stripeThinWire is Stripe's thin events, what an event destination sends:
// a small, unversioned notification ("object": "v2.core.event") naming the
// object that changed (related_object) instead of carrying it, signed with
// Stripe-Signature exactly as stripeWire's events are. A handler reads it
// with stripe-go's Client.ParseEventNotification or stripe-node's
// parseEventNotification, and fetches the event or the object if it needs
// more; ConstructEvent refuses it. The shape follows the stripe npm
// package 23.1's V2.Core.EventNotification types and stripe-go v85's
// V2CoreEventNotification.
type stripeThinWire struct{}

func init() { RegisterWire(stripeThinWire{}) }

func (stripeThinWire) Name() string             { return "stripe-thin" }
func (stripeThinWire) DefaultEventType() string { return "v1.invoice.paid" }

// stripeThinTypes are the thin event types the wire sends, the default
// first, each with the type of its related object and that object's API
// path and id prefix.
var stripeThinTypes = []struct{ typ, object, path, prefix string }{
	{"v1.invoice.paid", "invoice", "/v1/invoices/", "in_"},
	{"v1.invoice.payment_failed", "invoice", "/v1/invoices/", "in_"},
	{"v1.payment_intent.succeeded", "payment_intent", "/v1/payment_intents/", "pi_"},
	{"v1.customer.created", "customer", "/v1/customers/", "cus_"},
	{"v1.billing.meter.error_report_triggered", "billing.meter", "/v1/billing/meters/", "mtr_test_"},
	{"v2.core.account.created", "v2.core.account", "/v2/core/accounts/", "acct_test_"},
	{"v2.core.account.updated", "v2.core.account", "/v2/core/accounts/", "acct_test_"},
}

func (stripeThinWire) EventTypes() []string {
	out := make([]string, len(stripeThinTypes))
	for i, t := range stripeThinTypes {
		out[i] = t.typ
	}
	return out
}

// NewEvent draws the event's id as Stripe's docs write a thin event's:
// evt_test_ and 36 letters and digits.
func (stripeThinWire) NewEvent(ev *Event) {
	r := Key(ev.Seed, 1, 0)
	ev.ID = "evt_test_" + r.Alnum(36)
}

// stripeThinEvent is the notification's JSON, fields in the order of
// Stripe's docs' example.
type stripeThinEvent struct {
	ID            string             `json:"id"`
	Object        string             `json:"object"`
	Context       string             `json:"context,omitempty"` // the Connect account the event happened on
	Created       string             `json:"created"`
	Livemode      bool               `json:"livemode"`
	RelatedObject stripeThinRelation `json:"related_object"`
	Type          string             `json:"type"`
}

type stripeThinRelation struct {
	ID   string `json:"id"`
	Type string `json:"type"`
	URL  string `json:"url"`
}

// stripeThinCreated is how a thin event writes its time: RFC 3339 in UTC,
// to the millisecond.
const stripeThinCreated = "2006-01-02T15:04:05.000Z07:00"

func (stripeThinWire) Body(ev Event) ([]byte, string) {
	kind := stripeThinTypes[0]
	for _, t := range stripeThinTypes {
		if t.typ == ev.Type {
			kind = t
		}
	}
	r, ok := objectRand(ev, 0x7e)
	if !ok {
		r = Key(ev.Seed, 2, 0)
	}
	id := kind.prefix + r.Alnum(24)
	if strings.HasSuffix(kind.prefix, "_test_") {
		id = kind.prefix + r.Alnum(36)
	}
	return marshalBody(stripeThinEvent{
		ID: ev.ID, Object: "v2.core.event", Context: ev.Tenant, Type: ev.Type,
		Created:       ev.Created.UTC().Format(stripeThinCreated),
		RelatedObject: stripeThinRelation{ID: id, Type: kind.object, URL: kind.path + id},
	}), "application/json; charset=utf-8"
}

// A thin event is signed, resent and deduplicated as Stripe's snapshot
// events are.

func (stripeThinWire) Header(h http.Header, d Delivery) { stripeWire{}.Header(h, d) }
func (stripeThinWire) NewSecret(r *Rand) string         { return stripeWire{}.NewSecret(r) }
func (stripeThinWire) Scheme() Scheme                   { return stripeWire{}.Scheme() }
func (stripeThinWire) DedupField() string               { return stripeWire{}.DedupField() }

func (stripeThinWire) DedupID(h http.Header, body []byte) (string, error) {
	return stripeWire{}.DedupID(h, body)
}

func (stripeThinWire) Verify(h http.Header, body []byte, url, secret string, now time.Time) error {
	return stripeWire{}.Verify(h, body, url, secret, now)
}

// stripeObjectIs reports whether body's top-level "object" is want.
func stripeObjectIs(body []byte, want string) bool {
	var v struct {
		Object string `json:"object"`
	}
	return json.Unmarshal(body, &v) == nil && v.Object == want
}

// Claims: a thin event's object is "v2.core.event".
func (stripeThinWire) Claims(_ http.Header, body []byte) bool {
	return stripeObjectIs(body, "v2.core.event")
}

// Claims: a snapshot event's object is "event".
func (stripeWire) Claims(_ http.Header, body []byte) bool { return stripeObjectIs(body, "event") }
