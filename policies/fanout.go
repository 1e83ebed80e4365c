package policies

import (
	"fmt"
	"net/http"
	"time"
)

// FanOut is what a policy says about the deliveries of one event through
// several subscriptions to one endpoint (two Shopify subscriptions to one
// topic, a repository hook and an organisation hook at GitHub): the
// provider sends each subscription its own delivery, and none of them is a
// retry. A handler that keys its dedup on an id each subscription's
// delivery has of its own processes the event once per subscription.
//
// The facts are data (the catalogue's fan_out entry); the wire format makes
// the headers they name, and Init checks that it does.
type FanOut struct {
	// EventKey is the id every delivery of one event carries, retries and
	// every subscription's alike: the key that makes a handler process
	// the event once ("X-Shopify-Event-Id header").
	EventKey string `yaml:"event_key"`
	// DeliveryKey is the id one subscription's delivery keeps on its
	// retries and another subscription's delivery does not share: a key
	// that stops retries but lets fan-out through ("X-Shopify-Webhook-Id
	// header").
	DeliveryKey string `yaml:"delivery_key"`
	// Headers are the request headers the two keys are read from: the
	// event key's first, then the delivery key's (which may also need the
	// event key's, as GitHub's hook id does).
	EventHeader    string   `yaml:"event_header"`
	DeliveryHeader []string `yaml:"delivery_headers"`
}

// Subscriptions is the most subscriptions a fan-out fault may name.
const Subscriptions = 16

func (f *FanOut) validate(w Wire) []error {
	var errs []error
	if f.EventKey == "" || f.DeliveryKey == "" || f.EventHeader == "" || len(f.DeliveryHeader) == 0 {
		errs = append(errs, fmt.Errorf("fan_out: give event_key, delivery_key, event_header and delivery_headers"))
	}
	if w == nil || len(errs) > 0 {
		return errs
	}
	// The wire must make what the policy says: the event header the same
	// for two subscriptions, the delivery headers not all the same.
	ev := Event{Seed: 42, Type: w.DefaultEventType(), Created: time.Unix(1700000000, 0)}
	w.NewEvent(&ev)
	body, _ := w.Body(ev)
	h0, h1 := http.Header{}, http.Header{}
	w.Header(h0, Delivery{Event: ev, N: 1, Body: body, Secret: "s", Subscription: 0})
	w.Header(h1, Delivery{Event: ev, N: 1, Body: body, Secret: "s", Subscription: 1})
	if v := h0.Get(f.EventHeader); v == "" || v != h1.Get(f.EventHeader) {
		errs = append(errs, fmt.Errorf("fan_out.event_header: the %s wire does not send %s alike to every subscription", w.Name(), f.EventHeader))
	}
	same := true
	for _, k := range f.DeliveryHeader {
		if h0.Get(k) == "" {
			errs = append(errs, fmt.Errorf("fan_out.delivery_headers: the %s wire sends no %s header", w.Name(), k))
		}
		same = same && h0.Get(k) == h1.Get(k)
	}
	if same && len(errs) == 0 {
		errs = append(errs, fmt.Errorf("fan_out.delivery_headers: the %s wire sends %v alike to two subscriptions", w.Name(), f.DeliveryHeader))
	}
	return errs
}

// DeliveryKeyOf reads the key one subscription's delivery has of its own
// from a received request: the delivery headers' values joined by "/".
func (f *FanOut) DeliveryKeyOf(h http.Header) string {
	out := ""
	for i, k := range f.DeliveryHeader {
		if i > 0 {
			out += "/"
		}
		out += h.Get(k)
	}
	return out
}
