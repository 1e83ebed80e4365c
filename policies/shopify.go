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

// shopifyTopics are the X-Shopify-Topic values the Shopify wire sends, the
// default first.
var shopifyTopics = []string{
	"orders/paid", "orders/create", "orders/updated", "orders/cancelled", "refunds/create",
	"products/update", "customers/create", "app/uninstalled",
}

func (shopifyWire) EventTypes() []string { return shopifyTopics }

// shopifyShop is the simulated shop every event comes from.
const shopifyShop = "acme-demo.myshopify.com"

func (shopifyWire) Body(ev Event) ([]byte, string) {
	r := Key(ev.Seed, 2, 0)
	at := ev.Created.UTC().Format(time.RFC3339)
	orderID := 5000000000000 + r.IntN(999999999)
	customer := map[string]any{
		"id": 7000000000000 + r.IntN(999999999), "email": fmt.Sprintf("customer%d@example.com", r.IntN(10000)),
		"first_name": "Ada", "last_name": "Lovelace", "created_at": at, "updated_at": at,
	}
	qty := 1 + r.IntN(3)
	unit := 10*100 + r.IntN(190*100)
	total := qty * unit
	price := func(cents int) string { return fmt.Sprintf("%d.%02d", cents/100, cents%100) }
	product := map[string]any{
		"id": 8000000000000 + r.IntN(999999999), "title": "Retry-proof mug", "vendor": "Acme",
		"status": "active", "updated_at": at,
		"variants": []any{map[string]any{"id": 4000000000000 + r.IntN(999999999), "price": price(unit), "sku": "MUG-" + r.Alnum(4)}},
	}
	orderNumber := 1001 + ev.Seq
	if o, ok := objectRand(ev, 0x5f); ok {
		// The event is about one order (with its customer and product),
		// or one product, or one customer: the same ids on every event
		// about it.
		orderID = 5000000000000 + o.IntN(999_999_999_999)
		orderNumber = 1001 + o.IntN(999_000)
		customer["id"] = 7000000000000 + o.IntN(999_999_999_999)
		customer["email"] = fmt.Sprintf("customer%d@example.com", o.IntN(10000))
		product["id"] = 8000000000000 + o.IntN(999_999_999_999)
		product["variants"].([]any)[0].(map[string]any)["id"] = 4000000000000 + o.IntN(999_999_999_999)
	}
	var payload map[string]any
	switch ev.Type {
	case "products/update":
		payload = product
	case "customers/create":
		payload = customer
	case "app/uninstalled":
		payload = map[string]any{"id": 60000000000 + r.IntN(999999), "name": "Acme Demo", "domain": shopifyShop, "myshopify_domain": shopifyShop}
	case "refunds/create":
		payload = map[string]any{
			"id": 900000000000 + r.IntN(999999999), "order_id": orderID, "created_at": at, "processed_at": at,
			"transactions": []any{map[string]any{"kind": "refund", "status": "success", "amount": price(total), "currency": "USD"}},
		}
	default: // orders/*
		status, cancelled := "paid", any(nil)
		switch ev.Type {
		case "orders/create":
			status = "pending"
		case "orders/cancelled":
			status, cancelled = "voided", at
		}
		payload = map[string]any{
			"id": orderID, "admin_graphql_api_id": fmt.Sprintf("gid://shopify/Order/%d", orderID),
			"name": fmt.Sprintf("#%d", orderNumber), "order_number": orderNumber,
			"email": customer["email"], "customer": customer, "created_at": at, "updated_at": at,
			"cancelled_at": cancelled, "currency": "USD", "financial_status": status,
			"subtotal_price": price(total), "total_price": price(total), "total_tax": "0.00",
			"line_items": []any{map[string]any{
				"id": 13000000000000 + r.IntN(999999999), "product_id": product["id"], "title": product["title"],
				"quantity": qty, "price": price(unit),
			}},
		}
	}
	body, _ := json.Marshal(payload)
	return body, "application/json"
}

func (shopifyWire) Header(h http.Header, d Delivery) {
	r := Key(d.Event.Seed, 3, 0)
	h.Set("User-Agent", "Shopify-Captain-Hook")
	h.Set("X-Shopify-Topic", d.Event.Type)
	var buf [48]byte
	h.Set("X-Shopify-Hmac-Sha256", string(appendHMACBase64(buf[:0], d.Secret, d.Body, nil, nil)))
	h.Set("X-Shopify-Shop-Domain", shopifyShop)
	h.Set("X-Shopify-API-Version", "2024-07")
	h.Set("X-Shopify-Webhook-Id", d.Event.ID)
	h.Set("X-Shopify-Event-Id", r.UUID())
	h.Set("X-Shopify-Triggered-At", d.Event.Created.UTC().Format(time.RFC3339Nano))
}

func (shopifyWire) NewSecret(r *Rand) string { return r.Hex(16) }

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
