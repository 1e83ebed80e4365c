package sdkverify

import (
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-github/v93/github"
	"github.com/slack-go/slack"
	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"
	"github.com/stripe/stripe-go/v85/webhook"
	"github.com/twilio/twilio-go/client"

	"github.com/retrysim/retrysim/policies"
	"github.com/retrysim/retrysim/scenarios"
	"github.com/retrysim/retrysim/simulator"
)

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
	// ConstructEvent, as Stripe's docs show it: the signature, the
	// timestamp's age, and the event's API version against stripe-go's.
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
	{policy: "discord", stamped: "X-Signature-Ed25519", verify: verifyDiscord},
}

func verifyStripe(r *http.Request, body []byte, secret string) error {
	_, err := webhook.ConstructEvent(body, r.Header.Get("Stripe-Signature"), secret)
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

// arrival is one request as the handler saw it.
type arrival struct {
	dedup  string
	err    error
	header http.Header
}

// handler verifies every request, answers the first arrival of each event
// with a 500 so that the provider retries, and later ones with success.
type handler struct {
	t      *testing.T
	wire   policies.Wire
	secret string
	ok     int

	mu       sync.Mutex
	arrivals []arrival
	seen     map[string]int
}

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	r.Body = io.NopCloser(strings.NewReader(string(body)))
	v := verifierFor(h.t, h.wire.Name())
	verr := v(r, body, h.secret)
	id, derr := h.wire.DedupID(r.Header, body)
	if derr != nil && verr == nil {
		verr = derr
	}
	h.mu.Lock()
	h.arrivals = append(h.arrivals, arrival{dedup: id, err: verr, header: r.Header.Clone()})
	h.seen[id]++
	first := h.seen[id] == 1
	h.mu.Unlock()
	switch {
	case verr != nil:
		http.Error(w, verr.Error(), http.StatusUnauthorized)
	case first:
		http.Error(w, "try again", http.StatusInternalServerError)
	default:
		w.WriteHeader(h.ok)
	}
}

func verifierFor(t *testing.T, wire string) verifier {
	for _, v := range verifiers {
		p, err := policies.Lookup(v.policy)
		if err != nil {
			t.Fatal(err)
		}
		if p.Provider == wire {
			return v.verify
		}
	}
	t.Fatalf("no verifier for wire %s", wire)
	return nil
}

// TestOfficialVerifiersAcceptEveryAttempt runs each provider's policy
// against a loopback server that checks every request, retries included,
// with the provider's own verifier, on a lossy network where the handler
// also fails each event's first arrival.
func TestOfficialVerifiersAcceptEveryAttempt(t *testing.T) {
	sc, err := scenarios.Lookup("flaky-network")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range verifiers {
		t.Run(tc.policy, func(t *testing.T) {
			pol, err := policies.Lookup(tc.policy)
			if err != nil {
				t.Fatal(err)
			}
			const seed = 7
			secret := policies.GenerateSecret(pol.Provider, seed)
			ok := okStatus(&pol)
			h := &handler{t: t, wire: pol.Wire(), secret: secret, ok: ok, seen: map[string]int{}}
			srv := httptest.NewServer(h)
			defer srv.Close()
			var records []simulator.Record
			res, err := simulator.Run(context.Background(), simulator.Config{
				Policy: pol, Scenario: sc, URL: srv.URL + "/webhooks/" + pol.Provider + tc.fragment,
				Events: 12, Seed: seed, Secret: secret,
				Sink: func(r simulator.Record) error { records = append(records, r); return nil },
			})
			if err != nil {
				t.Fatal(err)
			}
			h.mu.Lock()
			defer h.mu.Unlock()
			// A provider that probes the endpoint with an invalid signature
			// (Discord) sends that first: the official verifier must reject
			// it, and accept everything else.
			probes := map[string]bool{}
			for _, r := range records {
				if r.Kind == simulator.KindAttack && r.Probe {
					probes[r.Event] = true
				}
			}
			if (pol.SignatureProbe != nil) != (len(probes) == 1) {
				t.Errorf("%d probes for a policy with signature_probe %v", len(probes), pol.SignatureProbe)
			}
			if len(h.arrivals) != res.Arrivals+res.Attacks {
				t.Errorf("handler saw %d requests, the engine says %d reached it and %d were probes", len(h.arrivals), res.Arrivals, res.Attacks)
			}
			for i, a := range h.arrivals {
				switch {
				case probes[a.dedup] && a.err == nil:
					t.Errorf("request %d, the invalid-signature probe, passed the official verifier", i+1)
				case !probes[a.dedup] && a.err != nil:
					t.Errorf("request %d (event %s) rejected by the official verifier: %v", i+1, a.dedup, a.err)
				}
			}
			retried := 0
			for _, r := range records {
				if r.Kind == simulator.KindAttempt && r.N > 1 && r.Reached {
					retried++
				}
			}
			if pol.MaxAttempts() > 1 && retried == 0 {
				t.Errorf("no retry reached the handler: the test checked first attempts only")
			}
			if pol.MaxAttempts() == 1 && res.Delivered != 0 {
				t.Errorf("a policy without retries delivered %d events although every first arrival got a 500", res.Delivered)
			}
			// Every arrival of an event carried the id the engine recorded.
			ids := map[string]bool{}
			for _, r := range records {
				if r.Kind == simulator.KindAttempt {
					ids[r.Event] = true
				}
			}
			for id, n := range h.seen {
				if !ids[id] && !probes[id] {
					t.Errorf("handler saw dedup id %q (%d times) that no attempt record carries", id, n)
				}
			}
			if tc.stamped != "" {
				signedOnce(t, tc.stamped, records, h.arrivals, probes)
			}
			t.Logf("%s: %d attempts, %d reached the handler (%d retries), all verified", tc.policy, res.Attempts, len(h.arrivals), retried)
		})
	}
}

// signedOnce checks that each attempt of an event that reached the handler
// carried a signature of its own in header: the provider signs every
// attempt afresh, with a new timestamp. (The two requests of a duplicated
// attempt are one attempt sent twice, with one signature.)
func signedOnce(t *testing.T, header string, records []simulator.Record, arrivals []arrival, probes map[string]bool) {
	t.Helper()
	attempts := map[string]map[int]bool{}
	for _, r := range records {
		if r.Kind == simulator.KindAttempt && r.Reached {
			if attempts[r.Event] == nil {
				attempts[r.Event] = map[int]bool{}
			}
			attempts[r.Event][r.N] = true
		}
	}
	sigs := map[string]map[string]bool{}
	for _, a := range arrivals {
		if probes[a.dedup] {
			continue
		}
		if sigs[a.dedup] == nil {
			sigs[a.dedup] = map[string]bool{}
		}
		sigs[a.dedup][a.header.Get(header)] = true
	}
	retried := 0
	for id, ns := range attempts {
		if len(ns) > 1 {
			retried++
		}
		if got := len(sigs[id]); got != len(ns) {
			t.Errorf("event %s: %d attempts reached the handler with %d different %s values; want one each", id, len(ns), got, header)
		}
	}
	if retried == 0 && len(attempts) > 0 && len(records) > 0 && records[0].MaxAttempt > 1 {
		t.Errorf("no event reached the handler twice: the signatures of retries were not compared")
	}
}

// TestOfficialVerifiersRejectAttacks sends the forged scenario to a handler
// that checks every request with the provider's official verifier: the
// genuine attempts all pass, and every attack a signature can catch fails.
// Discord's verifier checks the Ed25519 signature only, not the
// timestamp's age, so a stale or replayed Discord request passes it: the
// tolerance retrysim's own Verify applies there is an inference.
func TestOfficialVerifiersRejectAttacks(t *testing.T) {
	forged, err := scenarios.Lookup("forged")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range verifiers {
		t.Run(tc.policy, func(t *testing.T) {
			pol, err := policies.Lookup(tc.policy)
			if err != nil {
				t.Fatal(err)
			}
			secret := policies.GenerateSecret(pol.Provider, 3)
			ok := okStatus(&pol)
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				body, _ := io.ReadAll(r.Body)
				r.Body = io.NopCloser(strings.NewReader(string(body)))
				if err := tc.verify(r, body, secret); err != nil {
					http.Error(w, err.Error(), http.StatusUnauthorized)
					return
				}
				w.WriteHeader(ok)
			}))
			defer srv.Close()
			var records []simulator.Record
			_, err = simulator.Run(context.Background(), simulator.Config{
				Policy: pol, Scenario: forged, URL: srv.URL + "/webhooks/" + pol.Provider + tc.fragment,
				Events: 4, Seed: 3, Secret: secret,
				Sink: func(r simulator.Record) error { records = append(records, r); return nil },
			})
			if err != nil {
				t.Fatal(err)
			}
			sent := 0
			for _, r := range records {
				switch {
				case r.Kind == simulator.KindAttempt && r.HandlerStatus != ok:
					t.Errorf("attempt %d of %s: the official verifier answered %d", r.N, r.Event, r.HandlerStatus)
				case r.Kind != simulator.KindAttack || r.NotApplicable != "":
				case r.Undetectable != "":
					sent++
				case strings.HasPrefix(pol.Provider, "discord") && r.Attack == scenarios.AttackStaleTimestamp:
					// Discord's verifiers do not bound the timestamp: a stale
					// signature is no attack there, and is not sent as one.
					t.Errorf("a stale-timestamp attack was sent to %s, whose verifiers accept it (answered %d)", pol.Name, r.HandlerStatus)
				default:
					sent++
					if r.HandlerStatus != http.StatusUnauthorized {
						t.Errorf("%s %s (%s): the official verifier answered %d, want a rejection", r.Attack, r.AttackChange, r.AttackDetail, r.HandlerStatus)
					}
				}
			}
			if sent == 0 {
				t.Error("no attack was sent")
			}
		})
	}
}
