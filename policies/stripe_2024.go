package policies

import "fmt"

// stripeLegacyVersion is the API version retrysim's Stripe payloads
// followed before: a policy may still choose it (api_version: 2024-06-20)
// for a handler pinned to it.
const stripeLegacyVersion = "2024-06-20"

// stripeObject2024 builds the event's data.object for its type as API
// version 2024-06-20 wrote it, for a policy that chooses that version: the
// invoice still names its charge, payment intent and subscription, the
// subscription its current period.
func stripeObject2024(ev Event) map[string]any {
	x := newStripeIDs(ev)
	amount, created, cus, inv, pi, ch, sub := x.amount, x.created, x.cus, x.inv, x.pi, x.ch, x.sub
	r := &x.r
	family, action, failed := stripeFamily(ev.Type)
	switch family {
	case "invoice":
		paid := amount
		status := "paid"
		if failed {
			paid, status = 0, "open"
		}
		return map[string]any{
			"id": inv, "object": "invoice", "customer": cus, "subscription": sub, "payment_intent": pi,
			"charge": ch, "amount_due": amount, "amount_paid": paid, "amount_remaining": amount - paid,
			"currency": "usd", "status": status, "paid": !failed, "billing_reason": "subscription_cycle",
			"attempt_count": 1, "created": created - 3600, "livemode": false,
		}
	case "payment_intent":
		status, received := "succeeded", amount
		if failed {
			status, received = "requires_payment_method", 0
		}
		return map[string]any{
			"id": pi, "object": "payment_intent", "amount": amount, "amount_received": received,
			"currency": "usd", "customer": cus, "invoice": inv, "latest_charge": ch, "status": status,
			"created": created - 2, "livemode": false,
		}
	case "charge":
		refunded := action == "refunded"
		amountRefunded := 0
		if refunded {
			amountRefunded = amount
		}
		return map[string]any{
			"id": ch, "object": "charge", "amount": amount, "amount_captured": amount,
			"amount_refunded": amountRefunded, "refunded": refunded, "captured": true, "paid": true,
			"currency": "usd", "customer": cus, "payment_intent": pi, "invoice": inv, "status": "succeeded",
			"created": created - 1, "livemode": false,
		}
	case "checkout.session":
		return map[string]any{
			"id": "cs_test_" + r.Alnum(58), "object": "checkout.session", "amount_total": amount,
			"amount_subtotal": amount, "currency": "usd", "customer": cus, "payment_intent": pi,
			"mode": "payment", "payment_status": "paid", "status": "complete",
			"created": created - 120, "livemode": false,
		}
	case "subscription":
		status := "active"
		if action == "deleted" {
			status = "canceled"
		}
		return map[string]any{
			"id": sub, "object": "subscription", "customer": cus, "status": status,
			"latest_invoice": inv, "currency": "usd",
			"items": map[string]any{"object": "list", "data": []any{map[string]any{
				"id": "si_" + r.Alnum(14), "object": "subscription_item", "quantity": 1,
				"price": map[string]any{"id": "price_1" + r.Alnum(23), "object": "price", "unit_amount": amount, "currency": "usd", "recurring": map[string]any{"interval": "month"}},
			}}},
			"current_period_start": created, "current_period_end": created + 30*86400,
			"created": created - 1, "livemode": false,
		}
	default: // customer
		return map[string]any{
			"id": cus, "object": "customer", "email": fmt.Sprintf("customer%d@example.com", x.email()),
			"currency": "usd", "created": created - 1, "livemode": false,
		}
	}
}
