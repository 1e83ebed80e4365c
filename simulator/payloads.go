package simulator

import (
	"errors"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/retrysim/retrysim/policies"
)

// Payloads makes the events' bodies from the user's own payloads instead of
// the wire's synthetic ones (Config.Payloads); policies/payload.Set is one.
// Each attempt is still signed afresh by the wire, and the dedup id is the
// wire's, fresh for every event and run.
type Payloads interface {
	// Type is the event type of event seq, "" for the run's.
	Type(seq int) string
	// Body makes event ev's body, in a run of seed, and its content type.
	// It is called concurrently.
	Body(ev policies.Event, seed uint64) ([]byte, string)
}

// body is event ev's body and content type: the user's payload when the
// run has them, else the wire's.
func (e *engine) body(ev policies.Event) ([]byte, string) {
	if e.cfg.Payloads != nil {
		return e.cfg.Payloads.Body(ev, e.cfg.Seed)
	}
	return e.wire.Body(ev)
}

// ErrHeader is returned, wrapped, for an added header (Config.Header) the
// engine cannot send.
var ErrHeader = errors.New("header cannot be added")

// connectionHeaders are written by the HTTP client or the engine for
// every request: an added header cannot replace them.
var connectionHeaders = []string{"Content-Type", "Content-Length", "Host", "Transfer-Encoding", "Connection", VirtualTimeHeader}

// CheckHeaders checks the headers to add to every request sent with wire
// (Config.Header): none may be one the provider's wire writes itself (its
// signature, timestamp, dedup id, event type, ...) or one the HTTP
// connection owns. Each problem is reported.
func CheckHeaders(wire policies.Wire, h http.Header) error {
	own := WireHeaders(wire)
	var errs []error
	for _, k := range slices.Sorted(maps.Keys(h)) {
		ck := http.CanonicalHeaderKey(k)
		switch {
		case slices.Contains(own, ck):
			errs = append(errs, fmt.Errorf("%w: %s is written by %s itself on every delivery (its signature, timestamp, dedup id or event type): retrysim sets it", ErrHeader, ck, wire.Name()))
		case slices.Contains(connectionHeaders, ck):
			errs = append(errs, fmt.Errorf("%w: %s belongs to the request itself", ErrHeader, ck))
		}
		for _, v := range h[k] {
			if strings.ContainsAny(v, "\r\n\x00") {
				errs = append(errs, fmt.Errorf("%w: %s's value holds a line break", ErrHeader, ck))
			}
		}
	}
	return errors.Join(errs...)
}

// WireHeaders lists, in canonical form and sorted, every header wire writes
// on a first attempt and on a retry, and those its signature scheme
// changes per attempt.
func WireHeaders(wire policies.Wire) []string {
	ev := policies.Event{Seed: 1, Type: wire.DefaultEventType(), Created: DefaultStart()}
	wire.NewEvent(&ev)
	body, _ := wire.Body(ev)
	h := http.Header{}
	for n := 1; n <= 2; n++ {
		wire.Header(h, policies.Delivery{Event: ev, N: n, Body: body, URL: "http://127.0.0.1/", Secret: policies.GenerateSecret(wire.Name(), 1), SignedAt: DefaultStart().Add(time.Duration(n) * time.Second), RetryReason: "http_error"})
	}
	var out []string
	for k := range h {
		out = append(out, http.CanonicalHeaderKey(k))
	}
	if s, ok := policies.SchemeOf(wire); ok {
		out = append(out, s.Resent()...)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// addHeaders adds the run's own headers (Config.Header) to a request's.
func (e *engine) addHeaders(h http.Header) {
	for k, v := range e.cfg.Header {
		h[http.CanonicalHeaderKey(k)] = v
	}
}

// eventTypes names the type of the run's events: the run's, or, with the
// user's payloads, theirs, in the order the events take them, comma
// separated when they are several; "" for a run of real deliveries, whose
// types are those that come (each event record gives its own).
func (e *engine) eventTypes() string {
	switch {
	case e.cfg.Incoming != nil:
		return ""
	case e.cfg.Payloads == nil:
		return e.cfg.EventType
	}
	var types []string
	// Payloads are taken in turn: the first events show every type.
	for i := range min(e.cfg.Events, maxTypesNamed) {
		if t := e.work.typeOf(i); !slices.Contains(types, t) {
			types = append(types, t)
		}
	}
	return strings.Join(types, ", ")
}

// maxTypesNamed bounds the events eventTypes looks at.
const maxTypesNamed = 1000
