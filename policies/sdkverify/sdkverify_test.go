package sdkverify

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stripe/stripe-go/v85/webhook"

	"github.com/retrysim/retrysim/policies"
	"github.com/retrysim/retrysim/policies/policytest"
	"github.com/retrysim/retrysim/scenarios"
	"github.com/retrysim/retrysim/scenarios/scenariotest"
	"github.com/retrysim/retrysim/simulator"
)

// TestOfficialVerifiersAcceptEveryAttempt runs each provider's policy
// against a loopback server that checks every request, retries included,
// with the provider's own verifier, on a lossy network where the handler
// also fails each event's first arrival.
func TestOfficialVerifiersAcceptEveryAttempt(t *testing.T) {
	sc := scenariotest.Lookup(t, "flaky-network")
	for _, tc := range verifiers {
		t.Run(tc.policy, func(t *testing.T) {
			pol := policytest.Lookup(t, tc.policy)
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
				Sink: func(r *simulator.Record) error { records = append(records, *r); return nil },
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
					probes[r.EventID] = true
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
				if r.Kind == simulator.KindAttempt && r.Attempt > 1 && r.Reached {
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
					ids[r.EventID] = true
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

// TestOfficialVerifiersRejectAttacks sends the forged scenario to a handler
// that checks every request with the provider's official verifier: the
// genuine attempts all pass, and every attack a signature can catch fails.
// Discord's verifier checks the Ed25519 signature only, not the
// timestamp's age, so a stale or replayed Discord request passes it: the
// tolerance retrysim's own Verify applies there is an inference.
func TestOfficialVerifiersRejectAttacks(t *testing.T) {
	forged := scenariotest.Lookup(t, "forged")
	for _, tc := range verifiers {
		t.Run(tc.policy, func(t *testing.T) {
			pol := policytest.Lookup(t, tc.policy)
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
			_, err := simulator.Run(context.Background(), simulator.Config{
				Policy: pol, Scenario: forged, URL: srv.URL + "/webhooks/" + pol.Provider + tc.fragment,
				Events: 4, Seed: 3, Secret: secret,
				Sink: func(r *simulator.Record) error { records = append(records, *r); return nil },
			})
			if err != nil {
				t.Fatal(err)
			}
			sent := 0
			for _, r := range records {
				switch {
				case r.Kind == simulator.KindAttempt && r.HandlerStatus != ok:
					t.Errorf("attempt %d of %s: the official verifier answered %d", r.Attempt, r.EventID, r.HandlerStatus)
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

// TestStripeGoRefusesAnotherAPIVersion: a handler that calls stripe-go
// v85's ConstructEvent with no options accepts the events of a policy on
// 2026-03-25.dahlia, the version stripe-go v85 pins, and refuses the
// current ones (2026-10-28.endive, the stripe npm package's) though their
// signature is good: such a handler needs its endpoint on dahlia, or
// IgnoreAPIVersionMismatch.
func TestStripeGoRefusesAnotherAPIVersion(t *testing.T) {
	for _, tc := range []struct {
		version string
		refused bool
	}{{"", true}, {"2026-03-25.dahlia", false}} {
		pol := policytest.Lookup(t, "stripe")
		pol.APIVersion = tc.version
		if err := pol.Init(); err != nil {
			t.Fatal(err)
		}
		w := pol.Wire()
		secret := policies.GenerateSecret("stripe", 1)
		ev := policies.Event{Seed: 1, Type: w.DefaultEventType(), Created: time.Now(), Version: tc.version}
		w.NewEvent(&ev)
		body, _ := w.Body(ev)
		h := http.Header{}
		w.Header(h, policies.Delivery{Event: ev, N: 1, Body: body, Secret: secret, SignedAt: time.Now()})
		_, err := webhook.ConstructEvent(body, h.Get("Stripe-Signature"), secret)
		if (err != nil) != tc.refused {
			t.Errorf("api_version %q: ConstructEvent returned %v, want refused=%v", tc.version, err, tc.refused)
		}
		if err := verifyStripe(&http.Request{Header: h}, body, secret); err != nil {
			t.Errorf("api_version %q: with IgnoreAPIVersionMismatch: %v", tc.version, err)
		}
	}
}
