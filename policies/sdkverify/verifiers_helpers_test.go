package sdkverify

import (
	"crypto/ed25519"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/url"
	"testing"

	"github.com/google/go-github/v93/github"

	"github.com/slack-go/slack"
	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"
	"github.com/stripe/stripe-go/v85/webhook"
	"github.com/twilio/twilio-go/client"

	"github.com/retrysim/retrysim/policies"
	"github.com/retrysim/retrysim/policies/policytest"
)

// The providers' official verifiers, one per wire: what the tests hold every
// delivery and attack to.

// verifier checks one received request with the provider's official code.
// body has been read already; r.Body holds it again.
type verifier func(r *http.Request, body []byte, secret string) error

var verifiers = []struct {
	policy   string
	fragment string // appended to the URL (Twilio's connection overrides)
	verify   verifier
	// stamped names the signature header of a scheme that signs a
	// timestamp: every attempt must carry a signature of its own there.
	stamped string
}{
	// ConstructEvent, as Stripe's docs show it: the signature and the
	// timestamp's age (see verifyStripe for the API version).
	{policy: "stripe", stamped: "Stripe-Signature", verify: verifyStripe},
	{policy: "stripe-test", stamped: "Stripe-Signature", verify: verifyStripe},
	{policy: "github", verify: func(r *http.Request, _ []byte, secret string) error {
		_, err := github.ValidatePayload(r, []byte(secret))
		return err
	}},
	{policy: "slack", stamped: "X-Slack-Signature", verify: func(r *http.Request, body []byte, secret string) error {
		sv, err := slack.NewSecretsVerifier(r.Header, secret)
		if err != nil {
			return err
		}
		if _, err := sv.Write(body); err != nil {
			return err
		}
		return sv.Ensure()
	}},
	{policy: "twilio", fragment: "#rc=3&rp=all&ct=1000&rt=5000&tt=15000", verify: func(r *http.Request, body []byte, secret string) error {
		form, err := url.ParseQuery(string(body))
		if err != nil {
			return err
		}
		params := map[string]string{}
		for k, v := range form {
			params[k] = v[0]
		}
		// The URL the handler knows itself by: no fragment, which a client
		// never sends.
		self := "http://" + r.Host + r.URL.RequestURI()
		rv := client.NewRequestValidator(secret)
		if !rv.Validate(self, params, r.Header.Get("X-Twilio-Signature")) {
			return fmt.Errorf("twilio-go: X-Twilio-Signature does not validate for %s", self)
		}
		return nil
	}},
	{policy: "standard-webhooks", stamped: "webhook-signature", verify: func(r *http.Request, body []byte, secret string) error {
		wh, err := standardwebhooks.NewWebhook(secret)
		if err != nil {
			return err
		}
		return wh.Verify(body, r.Header)
	}},
	{policy: "svix", stamped: "svix-signature", verify: func(r *http.Request, body []byte, secret string) error {
		if r.Header.Get("webhook-id") != "" {
			return fmt.Errorf("svix sends svix-* headers, got webhook-id")
		}
		// Svix's scheme is Standard Webhooks under svix-* names.
		h := http.Header{}
		for _, k := range []string{"id", "timestamp", "signature"} {
			h.Set("webhook-"+k, r.Header.Get("svix-"+k))
		}
		wh, err := standardwebhooks.NewWebhook(secret)
		if err != nil {
			return err
		}
		return wh.Verify(body, h)
	}},
	{policy: "discord-events", stamped: "X-Signature-Ed25519", verify: verifyDiscord},
	// The schemes of 2026 (schemes2026_helpers_test.go).
	{policy: "stripe-thin", stamped: "Stripe-Signature", verify: verifyStripeThin},
	{policy: "standard-webhooks-v1a", stamped: "webhook-signature", verify: verifyStandardV1a},
	{policy: "twilio-shared-key", fragment: "#rc=3&rp=all&ct=1000&rt=5000&tt=15000", verify: verifyTwilioSharedKey},
	{policy: "shopify-events", verify: verifyShopifyEvents},
	{policy: "discord", stamped: "X-Signature-Ed25519", verify: verifyDiscord},
}

// verifyStripe is stripe-go's ConstructEvent as a handler on another API
// version than stripe-go's calls it: stripe-go v85 pins 2026-03-25.dahlia
// and refuses an event of another release train unless told to ignore
// the mismatch, and retrysim's Stripe events are in 2026-10-28.endive,
// the version the stripe npm package 23.1 pins
// (TestStripeGoRefusesAnotherAPIVersion).
func verifyStripe(r *http.Request, body []byte, secret string) error {
	_, err := webhook.ConstructEventWithOptions(body, r.Header.Get("Stripe-Signature"), secret,
		webhook.ConstructEventOptions{IgnoreAPIVersionMismatch: true})
	return err
}

func verifyDiscord(r *http.Request, body []byte, secret string) error {
	pubHex, ok := policies.PublicKey("discord", secret)
	if !ok {
		return fmt.Errorf("no public key for discord")
	}
	pub, err := hex.DecodeString(pubHex)
	if err != nil || len(pub) != ed25519.PublicKeySize {
		return fmt.Errorf("public key %q is not 32 bytes of hex", pubHex)
	}
	sig, err := hex.DecodeString(r.Header.Get("X-Signature-Ed25519"))
	if err != nil {
		return err
	}
	msg := append([]byte(r.Header.Get("X-Signature-Timestamp")), body...)
	if !ed25519.Verify(ed25519.PublicKey(pub), msg, sig) {
		return fmt.Errorf("crypto/ed25519: signature does not verify")
	}
	return nil
}

func verifierFor(t *testing.T, wire string) verifier {
	for _, v := range verifiers {
		p := policytest.Lookup(t, v.policy)
		if p.Provider == wire {
			return v.verify
		}
	}
	t.Fatalf("no verifier for wire %s", wire)
	return nil
}
