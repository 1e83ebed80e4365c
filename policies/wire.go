package policies

import (
	"errors"
	"fmt"
	"net/http"
	"slices"
	"time"
)

// Event is one webhook event of the workload: the thing the provider tries to
// deliver, perhaps many times.
type Event struct {
	// Seq is the event's index in the workload, from 0.
	Seq int
	// Seed keys every random detail of the event (ids, amounts).
	Seed uint64
	// ID is the provider's dedup id, identical on every attempt.
	ID string
	// Type is the provider's event type, e.g. "invoice.payment_succeeded".
	Type string
	// Created is the virtual time the event happened.
	Created time.Time
	// Object names what the event is about (a customer, an order): several
	// events of a workload share one, in the order they were created. The
	// payload's id of that thing (a Stripe customer, a Shopify order) is
	// derived from it, so events about one object name the same one; when
	// it is empty that id is drawn from Seed like every other.
	Object string
	// Version is the payload version the provider writes (Stripe's API
	// version), as the policy chooses it; empty means the wire's current
	// one.
	Version string
	// Tenant names the sender the event comes from, as its provider does
	// (TenantName): a shop, a Connect account, an installation. Empty
	// means the wire's one default sender, and a request as before
	// tenants existed.
	Tenant string
}

// Delivery is one attempt to deliver an event, as the wire format needs it
// to build and sign the request.
type Delivery struct {
	Event Event
	// N is the attempt number, from 1.
	N int
	// Body is the payload, byte-identical on every attempt.
	Body []byte
	// URL is the target the request is sent to (Twilio signs it).
	URL string
	// Secret is the signing secret.
	Secret string
	// SignedAt is the wall-clock time put in signature timestamps. The
	// engine (and replay) sign attempt n at SigningTime(now, n, attempts):
	// the wall clock to the whole second, less one second for each attempt
	// that can still follow, at most MaxSigningLag; so every attempt of an
	// event carries a later timestamp, and a different signature, than the
	// one before, as the provider's do, and each is within a minute of the
	// real time. An attack signs a stale request by setting it further back.
	SignedAt time.Time
	// RetryReason says why the previous attempt failed, in Slack's words
	// ("http_timeout", "http_error", ...); empty on the first attempt.
	RetryReason string
	// Subscription is which of the endpoint's subscriptions to the event
	// sends this delivery, from 0 (see FanOut): wire formats whose
	// provider gives each subscription's delivery an id of its own (a
	// Shopify webhook id, a GitHub hook id) derive it from this.
	Subscription int
}

// Wire is a provider's wire format: how a request for an event is shaped and
// signed, and how a handler reads the dedup id and checks the signature.
type Wire interface {
	// Name is the provider name policies refer to.
	Name() string
	// DefaultEventType is the event type sent when the user names none.
	DefaultEventType() string
	// NewEvent fills ev.ID (and any other detail) from ev.Seed.
	NewEvent(ev *Event)
	// Body returns the payload for ev and its content type.
	Body(ev Event) (body []byte, contentType string)
	// Header sets the headers of one attempt, signature included, on h.
	Header(h http.Header, d Delivery)
	// DedupField says where a handler finds the dedup id, e.g.
	// "X-GitHub-Delivery header".
	DedupField() string
	// DedupID reads the event's dedup id from a received request.
	DedupID(h http.Header, body []byte) (string, error)
	// Verify checks a received request's signature with secret, as a
	// careful handler would at time now.
	Verify(h http.Header, body []byte, url, secret string, now time.Time) error
}

// ErrBadSignature is returned, wrapped, by Wire.Verify for a request whose
// signature does not check out.
var ErrBadSignature = errors.New("signature verification failed")

var wires = map[string]Wire{}

// RegisterWire adds a wire format. Registering a name twice panics.
func RegisterWire(w Wire) {
	if _, dup := wires[w.Name()]; dup {
		panic(fmt.Sprintf("policies: wire %q registered twice", w.Name()))
	}
	wires[w.Name()] = w
}

// WireFor returns the wire format registered under name.
func WireFor(name string) (Wire, bool) {
	w, ok := wires[name]
	return w, ok
}

// WireNames lists the registered wire formats, sorted.
func WireNames() []string {
	out := make([]string, 0, len(wires))
	for n := range wires {
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}

// EventTyper is implemented by wire formats that know which event types
// they can send; a wire format without it accepts any type.
type EventTyper interface {
	// EventTypes lists the types, the default first.
	EventTypes() []string
}

// Versioner is implemented by wire formats that write more than one
// payload version (Stripe's API versions).
type Versioner interface {
	// APIVersions lists the versions, the current one first.
	APIVersions() []string
}

// ErrUnknownEventType is returned, wrapped, for an event type a wire format
// cannot send.
var ErrUnknownEventType = errors.New("unknown event type")

// EventTypes lists the event types w can send, its default first; nil means
// any type.
func EventTypes(w Wire) []string {
	if t, ok := w.(EventTyper); ok {
		return t.EventTypes()
	}
	return nil
}

// EventTypeFormatter is implemented by wire formats that send any event
// type written in their format (Standard Webhooks, Svix).
type EventTypeFormatter interface {
	// CheckEventTypeFormat reports why t is not written as an event type
	// of the wire, wrapping ErrUnknownEventType; nil when it is.
	CheckEventTypeFormat(t string) error
}

// CheckEventType reports whether w can send events of type t.
func CheckEventType(w Wire, t string) error {
	types := EventTypes(w)
	if f, ok := w.(EventTypeFormatter); ok && types == nil {
		return f.CheckEventTypeFormat(t)
	}
	if types == nil || slices.Contains(types, t) {
		return nil
	}
	return fmt.Errorf("%w %q for %s (valid: %s)", ErrUnknownEventType, t, w.Name(), joinNames(types))
}

// MaxSigningLag is the furthest behind the wall clock SigningTime puts a
// signature timestamp: well inside the five minutes the providers' own
// verifiers accept.
const MaxSigningLag = time.Minute

// SigningTime is when attempt n (from 1) of an event is signed, for an event
// that can have at most attempts attempts, when the wall clock says now: now
// to the whole second, less one second for each attempt that can still
// follow n, and never more than MaxSigningLag. A provider signs every
// attempt afresh, hours apart; a simulated schedule runs within a wall-clock
// second, where now alone would sign every attempt alike. This rule keeps
// an event's timestamps (whole seconds, as the schemes carry them) distinct
// and increasing from attempt to attempt even on a clock standing still,
// for up to MaxSigningLag/time.Second+1 attempts, and never in the future,
// so a careful handler accepts every one.
func SigningTime(now time.Time, n, attempts int) time.Time {
	lag := time.Duration(max(0, attempts-n)) * time.Second
	return now.Truncate(time.Second).Add(-min(lag, MaxSigningLag))
}

// Claimer is implemented by wire formats that sign as another wire does
// (stripe and stripe-thin, standard-webhooks and its v1a, twilio and
// twilio-shared-key), to tell their own deliveries from the other's.
type Claimer interface {
	// Claims reports whether a received delivery is one of this wire's
	// by what it carries (the body's object, the signature's version).
	Claims(h http.Header, body []byte) bool
}

// Claims reports whether w would have sent a delivery with these headers
// and body: true for a wire that cannot tell (it is not a Claimer).
func Claims(w Wire, h http.Header, body []byte) bool {
	if c, ok := w.(Claimer); ok {
		return c.Claims(h, body)
	}
	return true
}
