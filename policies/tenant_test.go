package policies

import (
	"encoding/base64"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"
)

// tenantDelivery builds attempt 1 of an event of tenant i of wire w.
func tenantDelivery(t *testing.T, w Wire, typ string, i int) (http.Header, []byte) {
	t.Helper()
	ev := Event{Seq: 3, Seed: 99, Type: typ, Created: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), Tenant: TenantName(w, i)}
	w.NewEvent(&ev)
	body, _ := w.Body(ev)
	h := http.Header{}
	w.Header(h, Delivery{Event: ev, N: 1, Body: body, URL: "http://127.0.0.1:9/webhooks/x", Secret: "s3cret", SignedAt: time.Now()})
	if err := w.Verify(h, body, "http://127.0.0.1:9/webhooks/x", "s3cret", time.Now()); err != nil {
		t.Fatalf("%s tenant %d: the signature does not verify: %v", w.Name(), i, err)
	}
	return h, body
}

func TestTenantNamesAreDistinct(t *testing.T) {
	for _, name := range []string{"shopify", "stripe", "github", "twilio"} {
		w, _ := WireFor(name)
		seen := map[string]int{}
		for i := range 5000 {
			n := TenantName(w, i)
			if j, dup := seen[n]; dup {
				t.Fatalf("%s: tenants %d and %d are both named %q", name, j, i, n)
			}
			seen[n] = i
		}
	}
}

func TestShopifyCarriesTheShop(t *testing.T) {
	w, _ := WireFor("shopify")
	h, _ := tenantDelivery(t, w, "orders/paid", 16)
	if got := h.Get("X-Shopify-Shop-Domain"); got != "shop-17.myshopify.com" {
		t.Errorf("X-Shopify-Shop-Domain = %q, want the tenant's shop", got)
	}
	_, body := tenantDelivery(t, w, "app/uninstalled", 16)
	if !strings.Contains(string(body), `"myshopify_domain":"shop-17.myshopify.com"`) {
		t.Errorf("app/uninstalled names another shop than its sender: %s", body)
	}
}

func TestStripeCarriesTheAccount(t *testing.T) {
	w, _ := WireFor("stripe")
	for _, typ := range []string{"invoice.payment_succeeded", "customer.created"} {
		_, body := tenantDelivery(t, w, typ, 4)
		var ev struct {
			ID, Object, Account string
		}
		if err := json.Unmarshal(body, &ev); err != nil {
			t.Fatal(err)
		}
		if ev.Account != TenantName(w, 4) || !strings.HasPrefix(ev.Account, "acct_1") || ev.ID == "" {
			t.Errorf("%s: account %q id %q, want the tenant's connected account", typ, ev.Account, ev.ID)
		}
		if !strings.Contains(string(body), `"object":"event","account":"acct_1`) {
			t.Errorf("%s: account is not where Stripe writes it: %.120s", typ, body)
		}
	}
}

func TestGitHubCarriesTheInstallation(t *testing.T) {
	w, _ := WireFor("github")
	for _, typ := range []string{"push", "issues"} {
		h, body := tenantDelivery(t, w, typ, 2)
		var p struct {
			Installation struct {
				ID     int64  `json:"id"`
				NodeID string `json:"node_id"`
			} `json:"installation"`
		}
		if err := json.Unmarshal(body, &p); err != nil {
			t.Fatal(err)
		}
		if p.Installation.ID != githubInstallationBase+2 || p.Installation.NodeID != "MDIzOkludGVncmF0aW9uSW5zdGFsbGF0aW9uNDAwMDAwMDI=" {
			t.Errorf("%s: installation %+v", typ, p.Installation)
		}
		if h.Get("X-GitHub-Hook-Installation-Target-Type") != "integration" {
			t.Errorf("%s: an installation's hook targets %q, not the app", typ, h.Get("X-GitHub-Hook-Installation-Target-Type"))
		}
	}
}

// GitHub's installation ids are 64-bit: one past 2^31 or 2^32 is carried
// whole, in both ways a payload is written (push's own encoder, the
// others' encoding/json), on every platform.
func TestGitHubInstallationIDsAre64Bit(t *testing.T) {
	w, _ := WireFor("github")
	for _, id := range []int64{1<<31 + 5, 1<<32 + 7, 90_071_992_547_409} {
		tenant := strconv.FormatInt(id, 10)
		for _, typ := range []string{"push", "issues"} {
			ev := Event{Seq: 3, Seed: 99, Type: typ, Created: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), Tenant: tenant}
			w.NewEvent(&ev)
			body, _ := w.Body(ev)
			var p struct {
				Installation *struct {
					ID     int64  `json:"id"`
					NodeID string `json:"node_id"`
				} `json:"installation"`
			}
			if err := json.Unmarshal(body, &p); err != nil {
				t.Fatal(err)
			}
			if p.Installation == nil || p.Installation.ID != id || p.Installation.NodeID != base64.StdEncoding.EncodeToString([]byte("023:IntegrationInstallation"+tenant)) {
				t.Errorf("%s of installation %d: installation %+v", typ, id, p.Installation)
			}
		}
	}
}

// An event with no tenant is sent as before tenants existed.
func TestNoTenantNoTenantFields(t *testing.T) {
	for _, name := range []string{"stripe", "github"} {
		w, _ := WireFor(name)
		_, body, _ := deliver(w, 1, w.DefaultEventType(), 1, "s", time.Now())
		if strings.Contains(string(body), `"account"`) || strings.Contains(string(body), `"installation"`) {
			t.Errorf("%s: a single sender's event carries a tenant field: %.200s", name, body)
		}
	}
}
