package policies

import (
	"fmt"
	"net/http"
	"strconv"
	"time"
)

type shopifyWire struct{}

// shopifyAPIVersion is the Admin API version the Shopify wire says its
// payloads are serialized in: the newest stable one at the end of 2026
// (Shopify releases one a quarter; docs/PROVIDERS.md).
const shopifyAPIVersion = "2026-10"

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

// shopifyShop is the simulated shop every event comes from when the run
// has one sender (Event.Tenant empty).
const shopifyShop = "acme-demo.myshopify.com"

// shopifyCustomer, shopifyProduct, shopifyOrder, shopifyRefund and
// shopifyShop are the payloads of the topics the Shopify wire sends, as
// Shopify's REST webhook payloads write them. Fields in alphabetical order.
type shopifyCustomer struct {
	CreatedAt string `json:"created_at"`
	Email     string `json:"email"`
	FirstName string `json:"first_name"`
	ID        int64  `json:"id"`
	LastName  string `json:"last_name"`
	UpdatedAt string `json:"updated_at"`
}

type shopifyProduct struct {
	ID        int64            `json:"id"`
	Status    string           `json:"status"`
	Title     string           `json:"title"`
	UpdatedAt string           `json:"updated_at"`
	Variants  []shopifyVariant `json:"variants"`
	Vendor    string           `json:"vendor"`
}

type shopifyVariant struct {
	ID    int64  `json:"id"`
	Price string `json:"price"`
	SKU   string `json:"sku"`
}

type shopifyOrder struct {
	AdminGraphqlAPIID string            `json:"admin_graphql_api_id"`
	CancelledAt       *string           `json:"cancelled_at"`
	CreatedAt         string            `json:"created_at"`
	Currency          string            `json:"currency"`
	Customer          shopifyCustomer   `json:"customer"`
	Email             string            `json:"email"`
	FinancialStatus   string            `json:"financial_status"`
	ID                int64             `json:"id"`
	LineItems         []shopifyLineItem `json:"line_items"`
	Name              string            `json:"name"`
	OrderNumber       int               `json:"order_number"`
	SubtotalPrice     string            `json:"subtotal_price"`
	TotalPrice        string            `json:"total_price"`
	TotalTax          string            `json:"total_tax"`
	UpdatedAt         string            `json:"updated_at"`
}

type shopifyLineItem struct {
	ID        int64  `json:"id"`
	Price     string `json:"price"`
	ProductID int64  `json:"product_id"`
	Quantity  int    `json:"quantity"`
	Title     string `json:"title"`
}

type shopifyRefund struct {
	CreatedAt    string               `json:"created_at"`
	ID           int64                `json:"id"`
	OrderID      int64                `json:"order_id"`
	ProcessedAt  string               `json:"processed_at"`
	Transactions []shopifyTransaction `json:"transactions"`
}

type shopifyTransaction struct {
	Amount   string `json:"amount"`
	Currency string `json:"currency"`
	Kind     string `json:"kind"`
	Status   string `json:"status"`
}

type shopifyShopObject struct {
	Domain          string `json:"domain"`
	ID              int64  `json:"id"`
	MyshopifyDomain string `json:"myshopify_domain"`
	Name            string `json:"name"`
}

func (shopifyWire) Body(ev Event) ([]byte, string) {
	r := Key(ev.Seed, 2, 0)
	at := ev.Created.UTC().Format(time.RFC3339)
	orderID := 5000000000000 + r.Int64N(999999999)
	customer := shopifyCustomer{
		ID: 7000000000000 + r.Int64N(999999999), Email: "customer" + strconv.Itoa(r.IntN(10000)) + "@example.com",
		FirstName: "Ada", LastName: "Lovelace", CreatedAt: at, UpdatedAt: at,
	}
	qty := 1 + r.IntN(3)
	unit := 10*100 + r.IntN(190*100)
	total := qty * unit
	price := func(cents int) string { return fmt.Sprintf("%d.%02d", cents/100, cents%100) }
	product := shopifyProduct{ID: 8000000000000 + r.Int64N(999999999), Title: "Retry-proof mug", Vendor: "Acme", Status: "active", UpdatedAt: at}
	product.Variants = []shopifyVariant{{ID: 4000000000000 + r.Int64N(999999999), Price: price(unit), SKU: "MUG-" + r.Alnum(4)}}
	orderNumber := 1001 + ev.Seq
	if o, ok := objectRand(ev, 0x5f); ok {
		// The event is about one order (with its customer and product),
		// or one product, or one customer: the same ids on every event
		// about it.
		orderID = 5000000000000 + o.Int64N(999_999_999_999)
		orderNumber = 1001 + o.IntN(999_000)
		customer.ID = 7000000000000 + o.Int64N(999_999_999_999)
		customer.Email = "customer" + strconv.Itoa(o.IntN(10000)) + "@example.com"
		product.ID = 8000000000000 + o.Int64N(999_999_999_999)
		product.Variants[0].ID = 4000000000000 + o.Int64N(999_999_999_999)
	}
	var payload any
	switch ev.Type {
	case "products/update":
		payload = product
	case "customers/create":
		payload = customer
	case "app/uninstalled":
		shop := shopifyShop
		if ev.Tenant != "" {
			shop = ev.Tenant
		}
		payload = shopifyShopObject{ID: 60000000000 + r.Int64N(999999), Name: "Acme Demo", Domain: shop, MyshopifyDomain: shop}
	case "refunds/create":
		payload = shopifyRefund{
			ID: 900000000000 + r.Int64N(999999999), OrderID: orderID, CreatedAt: at, ProcessedAt: at,
			Transactions: []shopifyTransaction{{Kind: "refund", Status: "success", Amount: price(total), Currency: "USD"}},
		}
	default: // orders/*
		o := shopifyOrder{
			ID: orderID, AdminGraphqlAPIID: "gid://shopify/Order/" + strconv.FormatInt(orderID, 10),
			Name: "#" + strconv.Itoa(orderNumber), OrderNumber: orderNumber,
			Email: customer.Email, Customer: customer, CreatedAt: at, UpdatedAt: at,
			Currency: "USD", FinancialStatus: "paid",
			SubtotalPrice: price(total), TotalPrice: price(total), TotalTax: "0.00",
		}
		switch ev.Type {
		case "orders/create":
			o.FinancialStatus = "pending"
		case "orders/cancelled":
			o.FinancialStatus, o.CancelledAt = "voided", &at
		}
		o.LineItems = []shopifyLineItem{{
			ID: 13000000000000 + r.Int64N(999999999), ProductID: product.ID, Title: product.Title, Quantity: qty, Price: price(unit),
		}}
		payload = o
	}
	return marshalBody(payload), "application/json"
}

func (shopifyWire) Header(h http.Header, d Delivery) {
	r := Key(d.Event.Seed, 3, uint64(d.Subscription))
	h.Set("User-Agent", "Shopify-Captain-Hook")
	h.Set("X-Shopify-Topic", d.Event.Type)
	var buf [48]byte
	h.Set("X-Shopify-Hmac-Sha256", string(appendHMACBase64(buf[:0], d.Secret, d.Body, nil, nil)))
	shop := shopifyShop
	if d.Event.Tenant != "" {
		shop = d.Event.Tenant
	}
	h.Set("X-Shopify-Shop-Domain", shop)
	h.Set("X-Shopify-API-Version", shopifyAPIVersion)
	// One event, one X-Shopify-Event-Id; each subscription's delivery of
	// it has an X-Shopify-Webhook-Id of its own, kept on its retries.
	h.Set("X-Shopify-Webhook-Id", r.UUID())
	h.Set("X-Shopify-Event-Id", d.Event.ID)
	h.Set("X-Shopify-Triggered-At", d.Event.Created.UTC().Format(time.RFC3339Nano))
}

func (shopifyWire) NewSecret(r *Rand) string { return r.Hex(16) }

// DedupField is the event id: Shopify's "Ignore duplicate webhooks" guide
// keys on it, and it is the one id that is the same on a retry and on
// every subscription's delivery of one event (docs/PROVIDERS.md).
func (shopifyWire) DedupField() string { return "X-Shopify-Event-Id header" }

// DedupID reads X-Shopify-Event-Id; a delivery captured before Shopify sent
// that header has only X-Shopify-Webhook-Id, which is then the id.
func (shopifyWire) DedupID(h http.Header, _ []byte) (string, error) {
	if id := h.Get("X-Shopify-Event-Id"); id != "" {
		return id, nil
	}
	if id := h.Get("X-Shopify-Webhook-Id"); id != "" {
		return id, nil
	}
	return "", fmt.Errorf("shopify: no X-Shopify-Event-Id header (nor X-Shopify-Webhook-Id)")
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
