package policies

import (
	"encoding/base64"
	"strconv"
)

// A tenant is one sender of a provider delivering to one URL: a Shopify
// app receives every shop's webhooks, a Stripe Connect platform every
// connected account's events, a GitHub App every installation's. Each has
// a subscription of its own. Event.Tenant names the event's sender as its
// provider does; a wire that knows how carries it in the request.

// TenantNamer is implemented by wire formats whose provider names its
// senders in a way of its own (a shop's domain, a Connect account id, an
// installation id).
type TenantNamer interface {
	// TenantName names tenant i, from 0; distinct i give distinct names.
	TenantName(i int) string
}

// TenantName is the name of tenant i (from 0) as w's provider writes it:
// the wire's own (TenantNamer) or "tenant-<i+1>". Names do not depend on
// the seed or the run id: a receiver sees the same senders in every run.
func TenantName(w Wire, i int) string {
	if n, ok := w.(TenantNamer); ok {
		return n.TenantName(i)
	}
	return "tenant-" + strconv.Itoa(i+1)
}

// TenantName is a shop's myshopify.com domain, which Shopify sends in
// X-Shopify-Shop-Domain.
func (shopifyWire) TenantName(i int) string {
	return "shop-" + strconv.Itoa(i+1) + ".myshopify.com"
}

// TenantName is a connected account's id, which Stripe sends as the
// event's "account" on Connect webhooks: "acct_1" and 15 letters and
// digits, distinct for distinct i (mix is a bijection).
func (stripeWire) TenantName(i int) string {
	const alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	x := mix(uint64(i))
	b := []byte("acct_1")
	for range 11 { // 62^11 > 2^64: every bit of x is written
		b = append(b, alphabet[x%62])
		x /= 62
	}
	return string(append(b, "Tnt0"...))
}

// githubInstallationBase is the id of the first simulated installation.
// GitHub's installation ids are 64-bit.
const githubInstallationBase int64 = 40_000_000

// TenantName is an installation's numeric id, which GitHub sends as
// installation.id in a GitHub App's webhook payloads.
func (githubWire) TenantName(i int) string {
	return strconv.FormatInt(githubInstallationBase+int64(i), 10)
}

// githubInstallation is a payload's installation: its id and GraphQL node
// id (base64 of "023:IntegrationInstallation<id>", as GitHub writes it).
type githubInstallation struct {
	ID     int64  `json:"id"`
	NodeID string `json:"node_id"`
}

// githubInstallationOf is the installation an event's tenant names, nil
// for an event of the single default sender (or a tenant that is no
// installation id). GitHub's ids are 64-bit, read as such on every
// platform.
func githubInstallationOf(ev Event) *githubInstallation {
	if ev.Tenant == "" {
		return nil
	}
	id, err := strconv.ParseInt(ev.Tenant, 10, 64)
	if err != nil {
		return nil
	}
	return &githubInstallation{ID: id, NodeID: base64.StdEncoding.EncodeToString([]byte("023:IntegrationInstallation" + ev.Tenant))}
}
