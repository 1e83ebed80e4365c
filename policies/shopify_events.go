package policies

import (
	"fmt"
	"net/http"
	"time"
)

// shopifyEventsWire is Shopify's next-generation Events (developer preview
// on the unstable API version in 2026): the headers carry no X- prefix,
// the body is signed as before (base64 HMAC-SHA256 of the raw body with
// the app's client secret, in Shopify-Hmac-Sha256), and Shopify's guide
// keys duplicates on Shopify-Webhook-Id. The body is the topic's REST
// payload, as the shopify wire sends it: the Events body (topic, action,
// handle and the data of the subscription's query) is not modelled.
type shopifyEventsWire struct{ shopifyWire }

func init() { RegisterWire(shopifyEventsWire{}) }

func (shopifyEventsWire) Name() string { return "shopify-events" }

// shopifyEventsAPIVersion is the API version Events is on.
const shopifyEventsAPIVersion = "unstable"

func (shopifyEventsWire) Header(h http.Header, d Delivery) {
	r := Key(d.Event.Seed, 3, uint64(d.Subscription))
	shop := shopifyShop
	if d.Event.Tenant != "" {
		shop = d.Event.Tenant
	}
	var buf [48]byte
	h.Set("User-Agent", "Shopify-Captain-Hook")
	h.Set("Shopify-Topic", d.Event.Type)
	h.Set("Shopify-Hmac-Sha256", string(appendHMACBase64(buf[:0], d.Secret, d.Body, nil, nil)))
	h.Set("Shopify-Shop-Domain", shop)
	h.Set("Shopify-API-Version", shopifyEventsAPIVersion)
	// One id per subscription's delivery of the event, kept on its
	// retries: the id Shopify's Events guide dedups on, and the event's
	// own for its first subscription.
	id := d.Event.ID
	if d.Subscription > 0 {
		id = r.UUID()
	}
	h.Set("Shopify-Webhook-Id", id)
	h.Set("Shopify-Triggered-At", d.Event.Created.UTC().Format(time.RFC3339Nano))
}

// DedupField is Shopify-Webhook-Id: "Verify Events deliveries" keys
// duplicates on it.
func (shopifyEventsWire) DedupField() string { return "Shopify-Webhook-Id header" }

func (shopifyEventsWire) DedupID(h http.Header, _ []byte) (string, error) {
	if id := h.Get("Shopify-Webhook-Id"); id != "" {
		return id, nil
	}
	return "", fmt.Errorf("shopify-events: no Shopify-Webhook-Id header")
}

func (shopifyEventsWire) Verify(h http.Header, body []byte, _, secret string, _ time.Time) error {
	got := h.Get("Shopify-Hmac-Sha256")
	if got == "" {
		return fmt.Errorf("%w: Shopify-Hmac-Sha256 header missing", ErrBadSignature)
	}
	if !equalSig(got, hmacBase64(secret, body)) {
		return fmt.Errorf("%w: Shopify-Hmac-Sha256 does not match", ErrBadSignature)
	}
	return nil
}

func (shopifyEventsWire) Scheme() Scheme { return Scheme{Headers: []string{"Shopify-Hmac-Sha256"}} }
