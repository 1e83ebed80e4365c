package simulator

import (
	"net/http"
	"slices"
	"sync"

	"github.com/retrysim/retrysim/policies"
)

// Sending a delivery again: the proxy re-sends each real delivery as the
// attempts of an event, and replay sends a captured one again and again.
// Both keep the headers as they came and replace only those the wire's
// signature scheme declares to change from one attempt to the next
// (policies.Scheme: the signature, its timestamp, a retry counter).

// wireHeaders are the header lists of one wire's signature scheme, in
// canonical form.
type wireHeaders struct {
	signed, resent []string
}

// schemeHeaders is every registered wire's header lists, by name, made
// once: they are asked for every attempt of a re-sent delivery, and by
// DetectWire for every wire on every call.
var schemeHeaders = sync.OnceValue(func() map[string]wireHeaders {
	out := map[string]wireHeaders{}
	for _, name := range policies.WireNames() {
		w, _ := policies.WireFor(name)
		s, _ := policies.SchemeOf(w)
		out[name] = wireHeaders{signed: s.Signed(), resent: s.Resent()}
	}
	return out
})

// resentHeaders are the headers that differ from one attempt of an event
// to the next, as w's scheme declares them; none for a wire without one.
func resentHeaders(w policies.Wire) []string {
	if h, ok := schemeHeaders()[w.Name()]; ok {
		return h.resent
	}
	s, _ := policies.SchemeOf(w)
	return s.Resent()
}

// overlay returns a copy of the headers a delivery came with, with each
// header named in replace taken from fresh (removed where fresh has none)
// and retrysim's virtual time taken from fresh.
func overlay(came, fresh http.Header, replace []string) http.Header {
	h := make(http.Header, len(came)+2)
	for k, vs := range came {
		h[k] = slices.Clone(vs)
	}
	for _, k := range replace {
		if vs, ok := fresh[k]; ok {
			h[k] = vs
		} else {
			delete(h, k)
		}
	}
	if vs, ok := fresh[VirtualTimeHeader]; ok {
		h[VirtualTimeHeader] = vs
	}
	return h
}
