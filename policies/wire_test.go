package policies

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
)

// TestGitHubDocsVector checks X-Hub-Signature-256 against the example in
// GitHub's docs ("Validating webhook deliveries").
func TestGitHubDocsVector(t *testing.T) {
	const want = "sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17"
	body := []byte("Hello, World!")
	secret := "It's a Secret to Everybody"
	h := http.Header{}
	githubWire{}.Header(h, Delivery{Event: Event{ID: "d", Type: "push"}, Body: body, Secret: secret})
	if got := h.Get("X-Hub-Signature-256"); got != want {
		t.Fatalf("X-Hub-Signature-256 = %s, want %s", got, want)
	}
	if err := (githubWire{}).Verify(h, body, "", secret, time.Time{}); err != nil {
		t.Fatalf("Verify rejects the docs vector: %v", err)
	}
}

// TestDedupIDStableAcrossAttempts: every wire's dedup id, read back from
// the request the way a handler reads it, is the event's id on every
// attempt, and differs between events.
func TestDedupIDStableAcrossAttempts(t *testing.T) {
	now := time.Now()
	for _, name := range WireNames() {
		t.Run(name, func(t *testing.T) {
			w, _ := WireFor(name)
			secret := GenerateSecret(name, 1)
			seen := map[string]int{}
			for seq := range 20 {
				var first string
				for n := 1; n <= 4; n++ {
					h, body, ev := deliver(w, seq, w.DefaultEventType(), n, secret, now.Add(time.Duration(n)*time.Second))
					id, err := w.DedupID(h, body)
					if err != nil {
						t.Fatalf("event %d attempt %d: %v", seq, n, err)
					}
					if id != ev.ID {
						t.Fatalf("event %d attempt %d: dedup id %q, but the event's id is %q", seq, n, id, ev.ID)
					}
					if n == 1 {
						first = id
					} else if id != first {
						t.Fatalf("event %d: attempt %d carries dedup id %q, attempt 1 carried %q", seq, n, id, first)
					}
				}
				if prev, dup := seen[first]; dup {
					t.Fatalf("events %d and %d share the dedup id %q", prev, seq, first)
				}
				seen[first] = seq
			}
		})
	}
}

// TestSignaturesVerifyAndCatchTampering: each wire's own Verify accepts its
// requests, and rejects a changed body and a wrong secret.
func TestSignaturesVerifyAndCatchTampering(t *testing.T) {
	now := time.Now()
	for _, name := range WireNames() {
		t.Run(name, func(t *testing.T) {
			w, _ := WireFor(name)
			secret := GenerateSecret(name, 3)
			for _, typ := range append([]string{w.DefaultEventType()}, EventTypes(w)...) {
				h, body, _ := deliver(w, 1, typ, 2, secret, now)
				target := "http://127.0.0.1:9/webhooks/x"
				if err := w.Verify(h, body, target, secret, now); err != nil {
					t.Fatalf("%s: Verify rejects a fresh request: %v", typ, err)
				}
				if err := w.Verify(h, body, target, secret+"x", now); !errors.Is(err, ErrBadSignature) {
					t.Fatalf("%s: Verify with the wrong secret: %v, want ErrBadSignature", typ, err)
				}
				if name == "gitlab" {
					continue // GitLab signs nothing: the body can change unnoticed
				}
				tampered := bytes.Replace(body, []byte("0"), []byte("1"), 1)
				if bytes.Equal(tampered, body) {
					tampered = append(body, ' ')
				}
				if err := w.Verify(h, tampered, target, secret, now); !errors.Is(err, ErrBadSignature) {
					t.Fatalf("%s: Verify of a changed body: %v, want ErrBadSignature", typ, err)
				}
			}
		})
	}
}

// TestRetriesCarryFreshTimestamps: schemes with a timestamp sign every
// attempt anew (a stale signature is rejected), and every scheme sends the
// same bytes on every attempt.
func TestRetriesCarryFreshTimestamps(t *testing.T) {
	fresh := map[string]string{
		"stripe": "Stripe-Signature", "slack": "X-Slack-Signature", "standard-webhooks": "webhook-signature",
		"svix": "svix-signature", "zoom": "x-zm-signature", "discord": "X-Signature-Ed25519", "discord-events": "X-Signature-Ed25519",
		"paypal": "PAYPAL-TRANSMISSION-SIG",
	}
	t0 := time.Now()
	for _, name := range WireNames() {
		t.Run(name, func(t *testing.T) {
			w, _ := WireFor(name)
			secret := GenerateSecret(name, 5)
			h1, b1, _ := deliver(w, 4, w.DefaultEventType(), 1, secret, t0.Add(-time.Hour))
			h2, b2, _ := deliver(w, 4, w.DefaultEventType(), 2, secret, t0)
			if !bytes.Equal(b1, b2) {
				t.Fatal("the body differs between attempts")
			}
			hdr, ok := fresh[name]
			if !ok {
				return
			}
			if h1.Get(hdr) == h2.Get(hdr) {
				t.Fatalf("%s is the same on a retry an hour later", hdr)
			}
			if s, _ := SchemeOf(w); s.Tolerance == 0 {
				return // PayPal's, Discord's and Zoom's verifiers do not bound the timestamp's age
			}
			if err := w.Verify(h1, b1, "", secret, t0); !errors.Is(err, ErrBadSignature) {
				t.Fatalf("an hour-old signature verified: %v", err)
			}
		})
	}
}

// TestSlackRetryHeaders: retries say their number and the reason.
func TestSlackRetryHeaders(t *testing.T) {
	w, _ := WireFor("slack")
	h1, _, _ := deliver(w, 0, "message", 1, "s", time.Now())
	h3, _, _ := deliver(w, 0, "message", 3, "s", time.Now())
	if h1.Get("X-Slack-Retry-Num") != "" {
		t.Errorf("first attempt carries X-Slack-Retry-Num %q", h1.Get("X-Slack-Retry-Num"))
	}
	if h3.Get("X-Slack-Retry-Num") != "2" || h3.Get("X-Slack-Retry-Reason") != "http_error" {
		t.Errorf("attempt 3: X-Slack-Retry-Num %q, X-Slack-Retry-Reason %q; want 2, http_error", h3.Get("X-Slack-Retry-Num"), h3.Get("X-Slack-Retry-Reason"))
	}
}

// TestEventTypesShapePayloads: the chosen type is the one the request
// names, and Stripe's objects agree with their event.
func TestEventTypesShapePayloads(t *testing.T) {
	stripe, _ := WireFor("stripe")
	for _, typ := range EventTypes(stripe) {
		_, body, ev := deliver(stripe, 2, typ, 1, "s", time.Now())
		var got struct {
			Type string
			Data struct {
				Object map[string]any
			}
		}
		if err := json.Unmarshal(body, &got); err != nil {
			t.Fatal(err)
		}
		if got.Type != typ {
			t.Errorf("%s: body type %q", typ, got.Type)
		}
		obj := got.Data.Object["object"].(string)
		family := strings.Split(typ, ".")[0]
		if family == "customer" && strings.Contains(typ, "subscription") {
			family = "subscription"
		}
		if family == "checkout" {
			family = "checkout.session"
		}
		if obj != family {
			t.Errorf("%s: data.object is a %s", typ, obj)
		}
		if c, ok := got.Data.Object["created"].(float64); !ok || int64(c) > ev.Created.Unix() {
			t.Errorf("%s: object created %v, after the event (%d)", typ, got.Data.Object["created"], ev.Created.Unix())
		}
	}
	for _, name := range []string{"github", "shopify", "gitlab"} {
		w, _ := WireFor(name)
		for _, typ := range EventTypes(w) {
			h, body, _ := deliver(w, 2, typ, 1, "s", time.Now())
			if !json.Valid(body) {
				t.Errorf("%s %s: body is not JSON", name, typ)
			}
			header := map[string]string{"github": "X-GitHub-Event", "shopify": "X-Shopify-Topic", "gitlab": "X-Gitlab-Event"}[name]
			if h.Get(header) == "" {
				t.Errorf("%s %s: no %s header", name, typ, header)
			}
		}
	}
	tw, _ := WireFor("twilio")
	_, body, _ := deliver(tw, 2, "undelivered", 1, "s", time.Now())
	form, _ := url.ParseQuery(string(body))
	if form.Get("MessageStatus") != "undelivered" || form.Get("ErrorCode") == "" {
		t.Errorf("twilio undelivered: %v", form)
	}
	if err := CheckEventType(stripe, "invoice.nope"); !errors.Is(err, ErrUnknownEventType) {
		t.Errorf("CheckEventType(invoice.nope) = %v", err)
	}
}

// TestGeneratedSecrets: the same seed gives the same secret, another seed
// another one, in each provider's shape.
func TestGeneratedSecrets(t *testing.T) {
	for _, name := range WireNames() {
		a, b, c := GenerateSecret(name, 1), GenerateSecret(name, 1), GenerateSecret(name, 2)
		if a != b || a == c || a == "" {
			t.Errorf("%s: secrets %q, %q (same seed), %q (other seed)", name, a, b, c)
		}
	}
	if s := GenerateSecret("stripe", 1); !strings.HasPrefix(s, "whsec_") {
		t.Errorf("stripe secret %q lacks whsec_", s)
	}
	pub, ok := PublicKey("discord", GenerateSecret("discord", 1))
	if !ok || len(pub) != 64 {
		t.Errorf("discord public key %q", pub)
	}
	if _, ok := PublicKey("stripe", "x"); ok {
		t.Error("stripe has a public key")
	}
	// One Discord application signs both products with one key pair.
	if a, b := GenerateSecret("discord", 4), GenerateSecret("discord-events", 4); a != b {
		t.Errorf("discord and discord-events generate different keys for one seed: %q, %q", a, b)
	}
}

// SigningTime keeps every attempt's timestamp in the past, within
// MaxSigningLag of the wall clock, in whole seconds, and later for each
// attempt than the one before, as long as the lag allows.
func TestSigningTime(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 999_000_000, time.UTC)
	for _, attempts := range []int{1, 4, 27, 61, 62, 1000} {
		t.Run(fmt.Sprint(attempts), func(t *testing.T) {
			var last time.Time
			for n := 1; n <= attempts; n++ {
				at := SigningTime(now, n, attempts)
				if at.After(now) || now.Sub(at) > MaxSigningLag+time.Second || at.Nanosecond() != 0 {
					t.Fatalf("attempt %d signed at %s: want whole seconds within %s before %s", n, at, MaxSigningLag, now)
				}
				distinct := attempts-n < int(MaxSigningLag/time.Second)
				if n > 1 && distinct && !at.After(last) {
					t.Errorf("attempt %d signed at %s, not after attempt %d's %s", n, at, n-1, last)
				}
				last = at
			}
			if !last.Equal(now.Truncate(time.Second)) {
				t.Errorf("the last attempt signed at %s, want the wall clock's second %s", last, now.Truncate(time.Second))
			}
		})
	}
}

// TestDiscordProductsDoNotCross: the interactions policy sends only
// interaction types and the webhook events policy only webhook event types;
// each refuses the other's, naming its own, and their bodies are shaped for
// their own endpoint (an interactions handler reads the events envelope's
// "type": 1 as a PING).
func TestDiscordProductsDoNotCross(t *testing.T) {
	cases := []struct {
		policy, own, other string
	}{
		{"discord", "APPLICATION_COMMAND", "ENTITLEMENT_CREATE"},
		{"discord-events", "ENTITLEMENT_CREATE", "APPLICATION_COMMAND"},
	}
	for _, c := range cases {
		p, err := Lookup(c.policy)
		if err != nil {
			t.Fatal(err)
		}
		err = CheckEventType(p.Wire(), c.other)
		if !errors.Is(err, ErrUnknownEventType) || !strings.Contains(err.Error(), c.own) {
			t.Errorf("%s accepts %s, or does not name its own types: %v", c.policy, c.other, err)
		}
		if err := CheckEventType(p.Wire(), c.own); err != nil {
			t.Errorf("%s refuses its own %s: %v", c.policy, c.own, err)
		}
		for _, typ := range EventTypes(p.Wire()) {
			_, body, _ := deliver(p.Wire(), 1, typ, 1, "s", time.Now())
			var got struct {
				Type  int              `json:"type"`
				Event *json.RawMessage `json:"event"`
			}
			if err := json.Unmarshal(body, &got); err != nil {
				t.Fatal(err)
			}
			if c.policy == "discord" && (got.Event != nil || (typ != "PING" && got.Type == 1)) {
				t.Errorf("discord %s: an interaction body reads as a PING or a webhook event: %s", typ, body)
			}
			if c.policy == "discord-events" && (got.Event == nil || got.Type != 1) {
				t.Errorf("discord-events %s: not a webhook event envelope: %s", typ, body)
			}
		}
	}
}
