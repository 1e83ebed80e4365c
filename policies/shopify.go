package policies

import (
	"encoding/json"
	"fmt"
	"net/http"
	"time"
)

type shopifyWire struct{}

func init() { RegisterWire(shopifyWire{}) }

func (shopifyWire) Name() string             { return "shopify" }
func (shopifyWire) DefaultEventType() string { return "orders/paid" }

func (shopifyWire) NewEvent(ev *Event) {
	r := Key(ev.Seed, 1, 0)
	ev.ID = r.UUID()
}

func (shopifyWire) Body(ev Event) ([]byte, string) {
	r := Key(ev.Seed, 2, 0)
	id := 5000000000000 + r.IntN(999999999)
	price := fmt.Sprintf("%d.%02d", 10+r.IntN(190), r.IntN(100))
	body, _ := json.Marshal(map[string]any{
		"id":                   id,
		"admin_graphql_api_id": fmt.Sprintf("gid://shopify/Order/%d", id),
		"name":                 fmt.Sprintf("#%d", 1001+ev.Seq),
		"email":                fmt.Sprintf("customer%d@example.com", r.IntN(10000)),
		"created_at":           ev.Created.UTC().Format(time.RFC3339),
		"currency":             "USD",
		"total_price":          price,
		"financial_status":     "paid",
	})
	return body, "application/json"
}

func (shopifyWire) Header(h http.Header, d Delivery) {
	r := Key(d.Event.Seed, 3, 0)
	h.Set("User-Agent", "Shopify-Captain-Hook")
	h.Set("X-Shopify-Topic", d.Event.Type)
	h.Set("X-Shopify-Hmac-Sha256", hmacBase64(d.Secret, d.Body))
	h.Set("X-Shopify-Shop-Domain", "acme-demo.myshopify.com")
	h.Set("X-Shopify-API-Version", "2024-07")
	h.Set("X-Shopify-Webhook-Id", d.Event.ID)
	h.Set("X-Shopify-Event-Id", r.UUID())
	h.Set("X-Shopify-Triggered-At", d.Event.Created.UTC().Format(time.RFC3339Nano))
}

func (shopifyWire) DedupField() string { return "X-Shopify-Webhook-Id header" }

func (shopifyWire) DedupID(h http.Header, _ []byte) (string, error) {
	if id := h.Get("X-Shopify-Webhook-Id"); id != "" {
		return id, nil
	}
	return "", fmt.Errorf("shopify: no X-Shopify-Webhook-Id header")
}

func (shopifyWire) Verify(h http.Header, body []byte, _, secret string, _ time.Time) error {
	got := h.Get("X-Shopify-Hmac-Sha256")
	if got == "" {
		return fmt.Errorf("%w: X-Shopify-Hmac-Sha256 header missing", ErrBadSignature)
	}
	if !equalSig(got, hmacBase64(secret, body)) {
		return fmt.Errorf("%w: X-Shopify-Hmac-Sha256 does not match", ErrBadSignature)
	}
	return nil
}
