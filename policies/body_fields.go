package policies

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// BodyFields says where a provider's body carries what differs from one
// event to the next: the event's own id and time. A body made from a user's
// own payload (the policies/payload package) keeps every other byte and
// replaces only these, per event. Paths are keys joined by dots
// ("event.data.id"); "" means the body carries no such field.
type BodyFields struct {
	// ID is the path of the event's id in the body: the dedup id itself
	// where the provider puts it in the body (Stripe's "id", Slack's
	// "event_id"), or the event id beside a dedup id sent in a header
	// (PayPal); "" when the body carries none (GitHub, Shopify, Twilio,
	// GitLab, Standard Webhooks: the dedup id is a header).
	ID string
	// Time is the path of the event's time; TimeLayout is how it is
	// written: a Go time layout for a string, "" for Unix seconds as a
	// number.
	Time       string
	TimeLayout string
	// Type is the path of the event type in the body, "" when a header
	// carries it (GitHub, Shopify, GitLab) or the body writes it as a
	// number (Discord's interactions).
	Type string
	// Form says the wire sends form parameters (Twilio), not JSON: a
	// payload is then a JSON object of the parameters, sent form-encoded.
	Form bool
}

// ErrNoUserPayload is returned, wrapped, for a provider whose bodies cannot
// be made from a user's payload.
var ErrNoUserPayload = errors.New("cannot send a payload of yours")

// bodyFields lists every wire's BodyFields (a test checks that every
// registered wire has an entry or a reason in noUserPayload).
var bodyFields = map[string]BodyFields{
	"stripe":                {ID: "id", Time: "created", Type: "type"},
	"stripe-thin":           {ID: "id", Time: "created", TimeLayout: stripeThinCreated, Type: "type"},
	"slack":                 {ID: "event_id", Time: "event_time", Type: "event.type"},
	"standard-webhooks":     {Time: "timestamp", TimeLayout: "2006-01-02T15:04:05.000000Z07:00", Type: "type"},
	"standard-webhooks-v1a": {Time: "timestamp", TimeLayout: "2006-01-02T15:04:05.000000Z07:00", Type: "type"},
	"svix":                  {Time: "timestamp", TimeLayout: "2006-01-02T15:04:05.000000Z07:00", Type: "type"},
	"discord":               {ID: "id"},
	"discord-events":        {ID: "event.data.id", Time: "event.timestamp", TimeLayout: "2006-01-02T15:04:05.000000Z07:00", Type: "event.type"},
	"paypal":                {ID: "id", Time: "create_time", TimeLayout: "2006-01-02T15:04:05.000Z", Type: "event_type"},
	"github":                {},
	"shopify":               {},
	"shopify-events":        {},
	"gitlab":                {},
	"twilio":                {Type: "MessageStatus", Form: true},
	"twilio-shared-key":     {Type: "MessageStatus", Form: true},
}

// noUserPayload says, for the wires that cannot take a user's payload, why.
var noUserPayload = map[string]string{
	"zoom": "Zoom's dedup id is built from the body's payload.object.uuid, which a payload of yours would fix for every event",
}

// BodyFieldsOf returns the fields of w's body that differ from event to
// event, or an error wrapping ErrNoUserPayload when w's bodies cannot be
// made from a user's payload.
func BodyFieldsOf(w Wire) (BodyFields, error) {
	if why, ok := noUserPayload[w.Name()]; ok {
		return BodyFields{}, fmt.Errorf("%s: %w: %s", w.Name(), ErrNoUserPayload, why)
	}
	f, ok := bodyFields[w.Name()]
	if !ok {
		return BodyFields{}, fmt.Errorf("%s: %w: retrysim does not know where its body carries the event's id and time", w.Name(), ErrNoUserPayload)
	}
	return f, nil
}

// IDValue is the value of the body's ID field for ev: the dedup id, or,
// for PayPal (whose dedup id is the PAYPAL-TRANSMISSION-ID header), an
// event id of PayPal's shape drawn from the event's seed.
func (f BodyFields) IDValue(w Wire, ev Event) string {
	if w.Name() == "paypal" {
		r := Key(ev.Seed, 5, 0)
		return "WH-" + strings.ToUpper(r.Alnum(17)) + "-" + strings.ToUpper(r.Alnum(17))
	}
	return ev.ID
}

// AppendTime appends ev's time as the body's Time field writes it, as JSON:
// a number of Unix seconds, or a string in TimeLayout.
func (f BodyFields) AppendTime(dst []byte, ev Event) []byte {
	if f.TimeLayout == "" {
		return strconv.AppendInt(dst, ev.Created.Unix(), 10)
	}
	dst = append(dst, '"')
	dst = ev.Created.UTC().AppendFormat(dst, f.TimeLayout)
	return append(dst, '"')
}
