package sdkverify

import (
	"crypto/ed25519"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/retrysim/retrysim/policies"
	"github.com/stripe/stripe-go/v85"
)

// The verifiers of the signature schemes of 2026. Stripe's thin events are
// checked by stripe-go itself; the others have no verifier in a Go module
// the proxy serves, so each is written as the provider's docs show it.

// verifyStripeThin is stripe-go's Client.ParseEventNotification, which an
// event destination's handler calls: the signature and the timestamp's
// age, then the notification's envelope.
func verifyStripeThin(r *http.Request, body []byte, secret string) error {
	sc := stripe.NewClient("sk_test_retrysim")
	n, err := sc.ParseEventNotification(body, r.Header.Get("Stripe-Signature"), secret)
	if err != nil {
		return err
	}
	if e := n.GetEventNotification(); e.Object != "v2.core.event" || e.ID == "" || e.Created.IsZero() {
		return fmt.Errorf("stripe-go read a notification without object v2.core.event, id or created: %+v", e)
	}
	return nil
}

// verifyStandardV1a is the Standard Webhooks spec's asymmetric check, as
// its libraries' NewWebhookAsymmetric(publicKey).Verify does it: the whpk_
// public key, each space-separated "v1a,<base64>" in webhook-signature
// checked with Ed25519 over id.timestamp.body, and the timestamp within 5
// minutes of now.
func verifyStandardV1a(r *http.Request, body []byte, secret string) error {
	whpk, _ := policies.PublicKey("standard-webhooks-v1a", secret)
	pub, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(whpk, "whpk_"))
	if err != nil || len(pub) != ed25519.PublicKeySize {
		return fmt.Errorf("public key %q is not whpk_ and 32 bytes of base64", whpk)
	}
	id, ts := r.Header.Get("webhook-id"), r.Header.Get("webhook-timestamp")
	sec, err := strconv.ParseInt(ts, 10, 64)
	if id == "" || err != nil {
		return fmt.Errorf("webhook-id or webhook-timestamp missing")
	}
	if d := time.Since(time.Unix(sec, 0)); d > 5*time.Minute || d < -5*time.Minute {
		return fmt.Errorf("webhook-timestamp is %s from now", d)
	}
	msg := []byte(id + "." + ts + "." + string(body))
	for _, s := range strings.Fields(r.Header.Get("webhook-signature")) {
		v, b64, _ := strings.Cut(s, ",")
		sig, err := base64.StdEncoding.DecodeString(b64)
		if v == "v1a" && err == nil && ed25519.Verify(ed25519.PublicKey(pub), msg, sig) {
			return nil
		}
	}
	return fmt.Errorf("no v1a signature verifies")
}

// verifyTwilioSharedKey is twilio-node 6.3's webhook middleware given a
// sharedKeySecret, in Go: the algorithm from
// X-Twilio-Webhooks-Signature-Settings (getSignatureAlgorithm), then
// base64 HMAC of the URL the handler knows itself by and the sorted form
// parameters (validateRequest).
func verifyTwilioSharedKey(r *http.Request, body []byte, secret string) error {
	settings := r.Header.Get("X-Twilio-Webhooks-Signature-Settings")
	if settings == "" {
		return fmt.Errorf("no X-Twilio-Webhooks-Signature-Settings: the middleware would check with the Auth Token")
	}
	alg := "HMAC_SHA1"
	for _, part := range strings.Split(settings, ",") {
		if k, v, ok := strings.Cut(part, "="); ok && strings.TrimSpace(k) == "algorithm" && strings.TrimSpace(v) != "" {
			alg = strings.TrimSpace(v)
		}
	}
	if !strings.EqualFold(alg, "HMAC_SHA256") {
		return fmt.Errorf("algorithm %s is not the shared key's HMAC_SHA256", alg)
	}
	form, err := url.ParseQuery(string(body))
	if err != nil {
		return err
	}
	keys := make([]string, 0, len(form))
	for k := range form {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	data := "http://" + r.Host + r.URL.RequestURI()
	for _, k := range keys {
		data += k + form.Get(k)
	}
	m := hmac.New(sha256.New, []byte(secret))
	m.Write([]byte(data))
	if !hmac.Equal([]byte(r.Header.Get("X-Twilio-Signature")), []byte(base64.StdEncoding.EncodeToString(m.Sum(nil)))) {
		return fmt.Errorf("X-Twilio-Signature does not validate with the shared key for %s", data)
	}
	return nil
}

// verifyShopifyEvents is "Verify Events deliveries": base64 HMAC-SHA256 of
// the raw body with the app's client secret, compared with
// Shopify-Hmac-Sha256 in constant time.
func verifyShopifyEvents(r *http.Request, body []byte, secret string) error {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write(body)
	if !hmac.Equal([]byte(r.Header.Get("Shopify-Hmac-Sha256")), []byte(base64.StdEncoding.EncodeToString(m.Sum(nil)))) {
		return fmt.Errorf("Shopify-Hmac-Sha256 does not match")
	}
	return nil
}
