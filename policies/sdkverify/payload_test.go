package sdkverify

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/retrysim/retrysim/policies"
	"github.com/retrysim/retrysim/policies/payload"
	"github.com/retrysim/retrysim/policies/policytest"
	"github.com/retrysim/retrysim/scenarios/scenariotest"
	"github.com/retrysim/retrysim/simulator"
)

// userPayloads are payloads as a user saves them, one per provider with an
// official verifier, each with a field no synthetic body has (keep) and
// placeholders.
var userPayloads = map[string]string{
	"stripe": `{
  "id": "evt_1QxYzAbCdEfGhIjKlMnOpQrS",
  "object": "event",
  "api_version": "2026-03-25.dahlia",
  "created": 1733011200,
  "data": {"object": {"object": "invoice", "customer": "${pick cus_A cus_B}", "keep": "user's <own> & \"field\""}},
  "type": "invoice.paid"
}`,
	"github": `{"ref": "refs/heads/main", "keep": "user's <own> & \"field\"", "n": "${raw seq}"}`,
	"slack": `{"token": "t", "team_id": "T1", "api_app_id": "A1", "type": "event_callback", "event_id": "Ev0ABC", "event_time": 1,
  "event": {"type": "app_mention", "text": "<@U1> order ${seq}", "keep": "user's <own> & \"field\""}}`,
	"twilio":            `{"MessageSid": "SM${objectnum}", "MessageStatus": "delivered", "To": "+14155550100", "keep": "user's <own> & \"field\""}`,
	"standard-webhooks": `{"type": "invoice.paid", "timestamp": "2024-01-01T00:00:00Z", "data": {"keep": "user's <own> & \"field\"", "n": "${seq}"}}`,
	"svix":              `{"type": "invoice.paid", "timestamp": "2024-01-01T00:00:00Z", "data": {"keep": "user's <own> & \"field\"", "n": "${seq}"}}`,
	"discord-events": `{"application_id": "1", "type": 1, "version": 1, "event": {"type": "ENTITLEMENT_CREATE", "timestamp": "2024-01-01T00:00:00.000000+00:00",
  "data": {"id": "1", "user_id": "${objectnum}", "keep": "user's <own> & \"field\""}}}`,
	"discord": `{"id": "1", "application_id": "1", "type": 2, "token": "t", "data": {"name": "${pick ping pong}", "keep": "user's <own> & \"field\""}}`,
}

// TestOfficialVerifiersAcceptPayloadFileBodies runs each provider's policy
// with bodies made from a user's payload, and a header of the user's, on a
// lossy network: the provider's own verifier accepts every attempt, and
// every body carries the payload's own field byte for byte.
func TestOfficialVerifiersAcceptPayloadFileBodies(t *testing.T) {
	sc := scenariotest.Lookup(t, "flaky-network")
	for _, tc := range verifiers {
		pol := policytest.Lookup(t, tc.policy)
		src, ok := userPayloads[pol.Provider]
		if !ok {
			continue
		}
		t.Run(tc.policy, func(t *testing.T) {
			tpl, err := payload.Parse(pol.Wire(), pol.Provider+".json", []byte(src), "", nil)
			if err != nil {
				t.Fatal(err)
			}
			const seed = 7
			secret := policies.GenerateSecret(pol.Provider, seed)
			h := &handler{t: t, wire: pol.Wire(), secret: secret, ok: okStatus(&pol), seen: map[string]int{}}
			var bodies [][]byte
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				var buf bytes.Buffer
				buf.ReadFrom(r.Body)
				h.mu.Lock()
				bodies = append(bodies, buf.Bytes())
				h.mu.Unlock()
				if r.Header.Get("X-Gateway-Token") != "tok" {
					http.Error(w, "no gateway token", http.StatusForbidden)
					return
				}
				r.Body = io.NopCloser(bytes.NewReader(buf.Bytes()))
				h.ServeHTTP(w, r)
			}))
			defer srv.Close()
			res, err := simulator.Run(context.Background(), simulator.Config{
				Policy: pol, Scenario: sc, URL: srv.URL + "/webhooks/" + pol.Provider + tc.fragment,
				Events: 12, Seed: seed, Secret: secret, Payloads: payload.NewSet(tpl),
				Header: http.Header{"X-Gateway-Token": {"tok"}},
			})
			if err != nil {
				t.Fatal(err)
			}
			h.mu.Lock()
			defer h.mu.Unlock()
			if len(h.arrivals) == 0 || len(h.arrivals) != res.Arrivals+res.Attacks {
				t.Fatalf("handler verified %d requests, the engine says %d reached it", len(h.arrivals), res.Arrivals+res.Attacks)
			}
			probe := pol.SignatureProbe != nil
			rejected := 0
			for _, a := range h.arrivals {
				if a.err != nil {
					rejected++
				}
			}
			if want := map[bool]int{true: 1, false: 0}[probe]; rejected != want {
				t.Errorf("%d of %d requests rejected by the official verifier, want %d (the provider's probe); first: %v", rejected, len(h.arrivals), want, firstErr(h.arrivals))
			}
			keep := []byte(`user's <own> & \"field\"`)
			if pol.Provider == "twilio" {
				keep = []byte("keep=user%27s+%3Cown%3E+%26+%22field%22")
			}
			for i, b := range bodies {
				if !bytes.Contains(b, keep) {
					t.Fatalf("body %d lacks the payload's own field:\n%s", i+1, b)
				}
			}
		})
	}
}

func firstErr(as []arrival) error {
	for _, a := range as {
		if a.err != nil {
			return a.err
		}
	}
	return nil
}
