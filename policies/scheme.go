package policies

import (
	"net/http"
	"slices"
	"time"
)

// Coverage says what a signature protects.
type Coverage int

// What a signature covers.
const (
	// CoversBytes: the signature is over the body's exact bytes, so any
	// change to them, spacing included, breaks it.
	CoversBytes Coverage = iota
	// CoversParams: the signature is over the decoded form parameters
	// (Twilio), so a changed value breaks it but a re-encoding of the same
	// values does not.
	CoversParams
	// CoversJSON: the provider's SDK checks the signature over the parsed
	// JSON written out again (Zoom's Rivet: JSON.stringify of the parsed
	// body), so a changed value breaks it but re-spacing the same JSON
	// does not.
	CoversJSON
	// CoversNothing: there is no signature, only a shared token sent in the
	// clear (GitLab), so a changed body cannot be detected at all.
	CoversNothing
)

// Scheme describes how a wire format signs a request, as the signature
// attacks need it: which headers carry the signature, what it covers, and
// how old a signed timestamp a careful handler accepts.
type Scheme struct {
	// Headers carry the signature: a request without them is unsigned.
	Headers []string
	// Timestamp is the header that carries the signed timestamp: its own
	// header, or the signature header itself when the timestamp is part
	// of it (Stripe's t=); "" when the scheme signs no time. A captured
	// signature with a timestamp goes stale.
	Timestamp string
	// PerAttempt are the other headers written afresh for every attempt of
	// an event (Slack's retry number and reason, Zoom's tracking id): a
	// delivery sent again as a later attempt carries that attempt's.
	PerAttempt []string
	// Covers says what the signature protects.
	Covers Coverage
	// Tolerance is how far a signed timestamp may be from now before a
	// careful handler rejects the request; 0 when the scheme signs no
	// timestamp, or its verifiers do not bound the timestamp's age. A scheme
	// without one cannot tell a replayed request from a retry: only dedup
	// can.
	Tolerance time.Duration
	// AdvisedTolerance, set where Tolerance is 0 but the scheme signs a
	// timestamp (Discord, Zoom), is the bound on its age that is good
	// practice though the provider neither documents nor checks one: a
	// handler that does not bound it gets advice, never a failure.
	AdvisedTolerance time.Duration
}

// Signed lists the headers a fresh signature replaces, in canonical form,
// sorted: the signature headers and the timestamp's.
func (s Scheme) Signed() []string {
	out := make([]string, 0, len(s.Headers)+1)
	for _, h := range s.Headers {
		out = append(out, http.CanonicalHeaderKey(h))
	}
	if s.Timestamp != "" {
		out = append(out, http.CanonicalHeaderKey(s.Timestamp))
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// Resent lists every header that differs from one attempt of an event to
// the next, in canonical form, sorted: Signed and PerAttempt. Sending a
// captured or forwarded delivery again replaces these and keeps the rest.
func (s Scheme) Resent() []string {
	out := s.Signed()
	for _, h := range s.PerAttempt {
		out = append(out, http.CanonicalHeaderKey(h))
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// Signer is implemented by wire formats that describe their signature
// scheme. To sign a request as of another moment (a stale timestamp), give
// Wire.Header a Delivery whose SignedAt is that moment.
type Signer interface {
	// Scheme describes the wire format's signature.
	Scheme() Scheme
}

// SchemeOf returns w's signature scheme, and false when w does not
// describe one.
func SchemeOf(w Wire) (Scheme, bool) {
	s, ok := w.(Signer)
	if !ok {
		return Scheme{}, false
	}
	return s.Scheme(), true
}

// The wire formats' schemes.

func (stripeWire) Scheme() Scheme {
	return Scheme{Headers: []string{"Stripe-Signature"}, Timestamp: "Stripe-Signature", Tolerance: stripeTolerance}
}

func (githubWire) Scheme() Scheme {
	return Scheme{Headers: []string{"X-Hub-Signature-256", "X-Hub-Signature"}}
}

func (shopifyWire) Scheme() Scheme { return Scheme{Headers: []string{"X-Shopify-Hmac-Sha256"}} }

func (twilioWire) Scheme() Scheme {
	return Scheme{Headers: []string{"X-Twilio-Signature"}, Covers: CoversParams}
}

func (slackWire) Scheme() Scheme {
	return Scheme{
		Headers: []string{"X-Slack-Signature"}, Timestamp: "X-Slack-Request-Timestamp",
		PerAttempt: []string{"X-Slack-Retry-Num", "X-Slack-Retry-Reason"}, Tolerance: slackTolerance,
	}
}

func (w standardWire) Scheme() Scheme {
	return Scheme{Headers: []string{w.prefix + "-signature"}, Timestamp: w.prefix + "-timestamp", Tolerance: standardTolerance}
}

func (zoomWire) Scheme() Scheme {
	return Scheme{
		Headers: []string{"x-zm-signature"}, Timestamp: "x-zm-request-timestamp", PerAttempt: []string{"x-zm-trackingid"},
		Covers: CoversJSON, AdvisedTolerance: advisedTolerance,
	}
}

func (gitlabWire) Scheme() Scheme {
	return Scheme{Headers: []string{"X-Gitlab-Token"}, Covers: CoversNothing}
}

// PayPal signs PAYPAL-TRANSMISSION-TIME but documents no bound on its age,
// and its verifiers check none: against a replayed request it counts as a
// scheme without a timestamp (no Tolerance), though a captured signature
// still carries the capture's time.
func (paypalWire) Scheme() Scheme {
	return Scheme{Headers: []string{"PAYPAL-TRANSMISSION-SIG"}, Timestamp: "PAYPAL-TRANSMISSION-TIME"}
}
