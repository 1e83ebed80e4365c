package policies

import "fmt"

// The Stripe payload, written straight from its typed structs (see jsonw):
// Stripe's wire is the one the engine's HTTP benchmark drives, and these
// are encoding/json's bytes for the same structs without its reflection.

// stripeAppender is a Stripe object that writes itself as data.object.
type stripeAppender interface{ appendTo(w *jsonw) }

// appendTo writes the event with obj as its data.object and its request's
// id and idempotency key drawn from r (as Body draws them for the
// encoding/json path), straight into the body: neither is made a string.
func (e *stripeEvent) appendTo(w *jsonw, obj stripeAppender, r *Rand) {
	w.open("")
	w.str("id", e.ID)
	w.str("object", e.Object)
	if e.Account != "" {
		w.str("account", e.Account)
	}
	w.str("api_version", e.APIVersion)
	w.int("created", e.Created)
	w.open("data")
	w.key("object")
	w.more = false
	appendStripeObject(w, obj)
	w.close()
	w.bool("livemode", e.Livemode)
	w.int("pending_webhooks", int64(e.PendingWebhooks))
	w.open("request")
	// Letters, digits and dashes: nothing to escape.
	w.key("id")
	w.b = append(r.AppendAlnum(append(w.b, `"req_`...), 14), '"')
	w.key("idempotency_key")
	w.b = append(r.AppendUUID(append(w.b, '"')), '"')
	w.close()
	w.str("type", e.Type)
	w.close()
}

// appendStripeObject writes obj by a static call for its type: called
// through the interface, appendTo would make w escape to the heap, one
// allocation more for every body.
func appendStripeObject(w *jsonw, obj stripeAppender) {
	switch o := obj.(type) {
	case stripeInvoice:
		o.appendTo(w)
	case stripePaymentIntent:
		o.appendTo(w)
	case stripeCharge:
		o.appendTo(w)
	case stripeCheckoutSession:
		o.appendTo(w)
	case stripeSubscription:
		o.appendTo(w)
	case stripeCustomer:
		o.appendTo(w)
	default:
		panic(fmt.Sprintf("policies: appendStripeObject has no case for %T", obj))
	}
}

func (o stripeInvoice) appendTo(w *jsonw) {
	w.open("")
	w.str("id", o.ID)
	w.str("object", o.Object)
	w.int("amount_due", int64(o.AmountDue))
	w.int("amount_paid", int64(o.AmountPaid))
	w.int("amount_remaining", int64(o.AmountRemaining))
	w.int("attempt_count", int64(o.AttemptCount))
	w.str("billing_reason", o.BillingReason)
	w.int("created", o.Created)
	w.str("currency", o.Currency)
	w.str("customer", o.Customer)
	w.bool("livemode", o.Livemode)
	w.open("parent")
	w.null("quote_details") // never set: an invoice of a subscription
	w.open("subscription_details")
	w.open("metadata")
	w.close()
	w.str("subscription", o.Parent.SubscriptionDetails.Subscription)
	w.close()
	w.str("type", o.Parent.Type)
	w.close()
	w.str("status", o.Status)
	w.close()
}

func (o stripePaymentIntent) appendTo(w *jsonw) {
	w.open("")
	w.str("id", o.ID)
	w.str("object", o.Object)
	w.int("amount", int64(o.Amount))
	w.int("amount_received", int64(o.AmountReceived))
	w.int("created", o.Created)
	w.str("currency", o.Currency)
	w.str("customer", o.Customer)
	w.str("latest_charge", o.LatestCharge)
	w.bool("livemode", o.Livemode)
	w.str("status", o.Status)
	w.close()
}

func (o stripeCharge) appendTo(w *jsonw) {
	w.open("")
	w.str("id", o.ID)
	w.str("object", o.Object)
	w.int("amount", int64(o.Amount))
	w.int("amount_captured", int64(o.AmountCaptured))
	w.int("amount_refunded", int64(o.AmountRefunded))
	w.bool("captured", o.Captured)
	w.int("created", o.Created)
	w.str("currency", o.Currency)
	w.str("customer", o.Customer)
	w.bool("livemode", o.Livemode)
	w.bool("paid", o.Paid)
	w.str("payment_intent", o.PaymentIntent)
	w.bool("refunded", o.Refunded)
	w.str("status", o.Status)
	w.close()
}

func (o stripeCheckoutSession) appendTo(w *jsonw) {
	w.open("")
	w.str("id", o.ID)
	w.str("object", o.Object)
	w.int("amount_subtotal", int64(o.AmountSubtotal))
	w.int("amount_total", int64(o.AmountTotal))
	w.int("created", o.Created)
	w.str("currency", o.Currency)
	w.str("customer", o.Customer)
	w.bool("livemode", o.Livemode)
	w.str("mode", o.Mode)
	w.str("payment_intent", o.PaymentIntent)
	w.str("payment_status", o.PaymentStatus)
	w.str("status", o.Status)
	w.close()
}

func (o stripeSubscription) appendTo(w *jsonw) {
	w.open("")
	w.str("id", o.ID)
	w.str("object", o.Object)
	w.int("created", o.Created)
	w.str("currency", o.Currency)
	w.str("customer", o.Customer)
	w.open("items")
	w.str("object", o.Items.Object)
	w.openArray("data")
	for _, it := range o.Items.Data {
		w.open("")
		w.str("id", it.ID)
		w.str("object", it.Object)
		w.int("current_period_end", it.CurrentPeriodEnd)
		w.int("current_period_start", it.CurrentPeriodStart)
		w.open("price")
		w.str("id", it.Price.ID)
		w.str("object", it.Price.Object)
		w.str("currency", it.Price.Currency)
		w.open("recurring")
		w.str("interval", it.Price.Recurring.Interval)
		w.close()
		w.int("unit_amount", int64(it.Price.UnitAmount))
		w.close()
		w.int("quantity", int64(it.Quantity))
		w.str("subscription", it.Subscription)
		w.close()
	}
	w.closeArray()
	w.bool("has_more", o.Items.HasMore)
	w.str("url", o.Items.URL)
	w.close()
	w.str("latest_invoice", o.LatestInvoice)
	w.bool("livemode", o.Livemode)
	w.str("status", o.Status)
	w.close()
}

func (o stripeCustomer) appendTo(w *jsonw) {
	w.open("")
	w.str("id", o.ID)
	w.str("object", o.Object)
	w.int("created", o.Created)
	w.str("currency", o.Currency)
	w.str("email", o.Email)
	w.bool("livemode", o.Livemode)
	w.close()
}
