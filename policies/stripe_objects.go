package policies

import (
	"strconv"
	"strings"
)

// stripeVersion is the API version retrysim's Stripe events are written
// in: the one the stripe npm package 23.1 pins and describes. The objects
// retrysim writes have the same fields in it as in stripeDahliaVersion.
const stripeVersion = "2026-10-28.endive"

// stripeDahliaVersion is the API version stripe-go v85, the newest stripe-go
// the Go module proxy serves, pins (and stripe-node 22 did): a policy may
// choose it (api_version: 2026-03-25.dahlia) for a handler whose
// stripe-go's ConstructEvent refuses any other version.
const stripeDahliaVersion = "2026-03-25.dahlia"

// stripeIDs are the ids and figures an event's object is built from. The
// customer and subscription come from the event's object when it names one;
// every other id, amount and timestamp comes from the event's seed, and they
// agree with one another: the invoice's payment intent and charge, the
// customer, the amounts paid and captured. r goes on drawing what only one
// object type needs (a checkout session's id, a subscription item's).
type stripeIDs struct {
	r                     Rand
	amount                int
	created               int64
	cus, inv, pi, ch, sub string
	customerEmail         int // -1 when drawn from r, on demand
}

func newStripeIDs(ev Event) stripeIDs {
	x := stripeIDs{r: Key(ev.Seed, 2, 0), customerEmail: -1, created: ev.Created.Unix()}
	r := &x.r
	x.amount = 500 + r.IntN(200)*100
	// The ids are drawn into one buffer and cut from one string: one
	// allocation for them all.
	var buf [5*27 + 2*28]byte
	b := r.AppendAlnum(append(buf[:0], "cus_"...), 14)
	cus := len(b)
	b = r.AppendAlnum(append(b, "in_1"...), 23)
	inv := len(b)
	b = r.AppendAlnum(append(b, "pi_3"...), 23)
	pi := len(b)
	b = r.AppendAlnum(append(b, "ch_3"...), 23)
	ch := len(b)
	b = r.AppendAlnum(append(b, "sub_1"...), 23)
	sub := len(b)
	o, own := objectRand(ev, 0x57)
	if own {
		// The event is about one customer (and the subscription it pays
		// for): the same ids on every event about it.
		b = o.AppendAlnum(append(b, "cus_"...), 14)
		b = o.AppendAlnum(append(b, "sub_1"...), 23)
		x.customerEmail = o.IntN(10000)
	}
	ids := string(b)
	x.cus, x.inv, x.pi, x.ch, x.sub = ids[:cus], ids[cus:inv], ids[inv:pi], ids[pi:ch], ids[ch:sub]
	if own {
		ownCus := sub + len("cus_") + 14
		x.cus, x.sub = ids[sub:ownCus], ids[ownCus:]
	}
	return x
}

// email is the customer's address number.
func (x *stripeIDs) email() int {
	if x.customerEmail < 0 {
		x.customerEmail = x.r.IntN(10000)
	}
	return x.customerEmail
}

// stripeFamily splits an event type into the object it is about
// ("invoice", "subscription", "checkout.session") and what happened to it,
// and says whether it failed.
func stripeFamily(typ string) (family, action string, failed bool) {
	family, action, _ = strings.Cut(typ, ".")
	if family == "customer" && strings.HasPrefix(action, "subscription.") {
		family, action = "subscription", strings.TrimPrefix(action, "subscription.")
	}
	if family == "checkout" {
		family, action = "checkout.session", strings.TrimPrefix(action, "session.")
	}
	return family, action, strings.HasSuffix(action, "failed")
}

// The objects of API version 2026-03-25.dahlia that the Stripe wire sends,
// each field as stripe-node's types name it. Fields are in Stripe's order:
// id and object first, then alphabetical.

type stripeInvoice struct {
	ID              string              `json:"id"`
	Object          string              `json:"object"`
	AmountDue       int                 `json:"amount_due"`
	AmountPaid      int                 `json:"amount_paid"`
	AmountRemaining int                 `json:"amount_remaining"`
	AttemptCount    int                 `json:"attempt_count"`
	BillingReason   string              `json:"billing_reason"`
	Created         int64               `json:"created"`
	Currency        string              `json:"currency"`
	Customer        string              `json:"customer"`
	Livemode        bool                `json:"livemode"`
	Parent          stripeInvoiceParent `json:"parent"`
	Status          string              `json:"status"`
}

// stripeInvoiceParent is what an invoice belongs to since 2025-03-31.basil:
// the subscription that billed it (it replaced Invoice.subscription).
type stripeInvoiceParent struct {
	QuoteDetails        *struct{}                 `json:"quote_details"`
	SubscriptionDetails stripeSubscriptionDetails `json:"subscription_details"`
	Type                string                    `json:"type"`
}

type stripeSubscriptionDetails struct {
	// Metadata is always empty ({}): the subscription's metadata as
	// Stripe writes it when none was set, without a map to allocate.
	Metadata     struct{} `json:"metadata"`
	Subscription string   `json:"subscription"`
}

type stripePaymentIntent struct {
	ID             string `json:"id"`
	Object         string `json:"object"`
	Amount         int    `json:"amount"`
	AmountReceived int    `json:"amount_received"`
	Created        int64  `json:"created"`
	Currency       string `json:"currency"`
	Customer       string `json:"customer"`
	LatestCharge   string `json:"latest_charge"`
	Livemode       bool   `json:"livemode"`
	Status         string `json:"status"`
}

type stripeCharge struct {
	ID             string `json:"id"`
	Object         string `json:"object"`
	Amount         int    `json:"amount"`
	AmountCaptured int    `json:"amount_captured"`
	AmountRefunded int    `json:"amount_refunded"`
	Captured       bool   `json:"captured"`
	Created        int64  `json:"created"`
	Currency       string `json:"currency"`
	Customer       string `json:"customer"`
	Livemode       bool   `json:"livemode"`
	Paid           bool   `json:"paid"`
	PaymentIntent  string `json:"payment_intent"`
	Refunded       bool   `json:"refunded"`
	Status         string `json:"status"`
}

type stripeCheckoutSession struct {
	ID             string `json:"id"`
	Object         string `json:"object"`
	AmountSubtotal int    `json:"amount_subtotal"`
	AmountTotal    int    `json:"amount_total"`
	Created        int64  `json:"created"`
	Currency       string `json:"currency"`
	Customer       string `json:"customer"`
	Livemode       bool   `json:"livemode"`
	Mode           string `json:"mode"`
	PaymentIntent  string `json:"payment_intent"`
	PaymentStatus  string `json:"payment_status"`
	Status         string `json:"status"`
}

type stripeSubscription struct {
	ID            string                  `json:"id"`
	Object        string                  `json:"object"`
	Created       int64                   `json:"created"`
	Currency      string                  `json:"currency"`
	Customer      string                  `json:"customer"`
	Items         stripeSubscriptionItems `json:"items"`
	LatestInvoice string                  `json:"latest_invoice"`
	Livemode      bool                    `json:"livemode"`
	Status        string                  `json:"status"`
}

type stripeSubscriptionItems struct {
	Object  string                   `json:"object"`
	Data    []stripeSubscriptionItem `json:"data"`
	HasMore bool                     `json:"has_more"`
	URL     string                   `json:"url"`
}

// stripeSubscriptionItem carries the billing period since
// 2025-03-31.basil (it replaced Subscription.current_period_*).
type stripeSubscriptionItem struct {
	ID                 string      `json:"id"`
	Object             string      `json:"object"`
	CurrentPeriodEnd   int64       `json:"current_period_end"`
	CurrentPeriodStart int64       `json:"current_period_start"`
	Price              stripePrice `json:"price"`
	Quantity           int         `json:"quantity"`
	Subscription       string      `json:"subscription"`
}

type stripePrice struct {
	ID         string          `json:"id"`
	Object     string          `json:"object"`
	Currency   string          `json:"currency"`
	Recurring  stripeRecurring `json:"recurring"`
	UnitAmount int             `json:"unit_amount"`
}

type stripeRecurring struct {
	Interval string `json:"interval"`
}

type stripeCustomer struct {
	ID       string `json:"id"`
	Object   string `json:"object"`
	Created  int64  `json:"created"`
	Currency string `json:"currency"`
	Email    string `json:"email"`
	Livemode bool   `json:"livemode"`
}

// stripeObject builds the event's data.object for its type, in API version
// 2026-03-25.dahlia.
func stripeObject(ev Event) any {
	x := newStripeIDs(ev)
	family, action, failed := stripeFamily(ev.Type)
	switch family {
	case "invoice":
		paid, status := x.amount, "paid"
		if failed {
			paid, status = 0, "open"
		}
		return stripeInvoice{
			ID: x.inv, Object: "invoice", AmountDue: x.amount, AmountPaid: paid, AmountRemaining: x.amount - paid,
			AttemptCount: 1, BillingReason: "subscription_cycle", Created: x.created - 3600, Currency: "usd",
			Customer: x.cus, Status: status,
			Parent: stripeInvoiceParent{Type: "subscription_details",
				SubscriptionDetails: stripeSubscriptionDetails{Subscription: x.sub}},
		}
	case "payment_intent":
		status, received := "succeeded", x.amount
		if failed {
			status, received = "requires_payment_method", 0
		}
		return stripePaymentIntent{
			ID: x.pi, Object: "payment_intent", Amount: x.amount, AmountReceived: received, Created: x.created - 2,
			Currency: "usd", Customer: x.cus, LatestCharge: x.ch, Status: status,
		}
	case "charge":
		refunded := action == "refunded"
		c := stripeCharge{
			ID: x.ch, Object: "charge", Amount: x.amount, AmountCaptured: x.amount, Captured: true, Created: x.created - 1,
			Currency: "usd", Customer: x.cus, Paid: true, PaymentIntent: x.pi, Refunded: refunded, Status: "succeeded",
		}
		if refunded {
			c.AmountRefunded = x.amount
		}
		return c
	case "checkout.session":
		return stripeCheckoutSession{
			ID: x.r.alnumID("cs_test_", 58), Object: "checkout.session", AmountSubtotal: x.amount, AmountTotal: x.amount,
			Created: x.created - 120, Currency: "usd", Customer: x.cus, Mode: "payment", PaymentIntent: x.pi,
			PaymentStatus: "paid", Status: "complete",
		}
	case "subscription":
		status := "active"
		if action == "deleted" {
			status = "canceled"
		}
		item := stripeSubscriptionItem{
			ID: "si_" + x.r.Alnum(14), Object: "subscription_item", CurrentPeriodStart: x.created,
			CurrentPeriodEnd: x.created + 30*86400, Quantity: 1, Subscription: x.sub,
		}
		item.Price = stripePrice{ID: "price_1" + x.r.Alnum(23), Object: "price", Currency: "usd",
			Recurring: stripeRecurring{Interval: "month"}, UnitAmount: x.amount}
		return stripeSubscription{
			ID: x.sub, Object: "subscription", Created: x.created - 1, Currency: "usd", Customer: x.cus,
			Items: stripeSubscriptionItems{Object: "list", Data: []stripeSubscriptionItem{item},
				URL: "/v1/subscription_items?subscription=" + x.sub},
			LatestInvoice: x.inv, Status: status,
		}
	default: // customer
		return stripeCustomer{
			ID: x.cus, Object: "customer", Created: x.created - 1, Currency: "usd",
			Email: "customer" + strconv.Itoa(x.email()) + "@example.com",
		}
	}
}
