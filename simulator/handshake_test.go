package simulator

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/retrysim/retrysim/policies/policytest"
)

// docsHandler answers each provider's handshake as the provider's docs
// show (written here by hand, not with the policies package's answers),
// after checking the signature, and answers every event 200 (204 for
// Discord's webhook events).
func docsHandler(t *testing.T, policy, secret string) http.Handler {
	p := policytest.Lookup(t, policy) // here: a handler's goroutine may not stop the test
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if err := p.Wire().Verify(r.Header, body, "", secret, time.Now()); err != nil {
			http.Error(w, err.Error(), http.StatusUnauthorized)
			return
		}
		var in struct {
			Type      json.RawMessage `json:"type"`
			Challenge string          `json:"challenge"`
			Event     json.RawMessage `json:"event"`
			Payload   struct {
				PlainToken string `json:"plainToken"`
			} `json:"payload"`
		}
		_ = json.Unmarshal(body, &in)
		switch {
		case policy == "slack" && string(in.Type) == `"url_verification"`:
			w.Header().Set("Content-Type", "text/plain")
			io.WriteString(w, in.Challenge) // Slack: "respond with the challenge value"
		case policy == "zoom" && string(in.Event) == `"endpoint.url_validation"`:
			m := hmac.New(sha256.New, []byte(secret))
			m.Write([]byte(in.Payload.PlainToken))
			w.Header().Set("Content-Type", "application/json")
			json.NewEncoder(w).Encode(map[string]string{"plainToken": in.Payload.PlainToken, "encryptedToken": hex.EncodeToString(m.Sum(nil))})
		case policy == "discord" && string(in.Type) == "1":
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"type":1}`) // PONG
		case policy == "discord-events":
			w.WriteHeader(http.StatusNoContent) // the PING and every event
		default:
			io.WriteString(w, "ok")
		}
	})
}

// TestHandshakes: where the provider has one, the run sends its handshake
// first; a handler written as the provider's docs show passes it and gets
// every event, and one that answers it as it answers events (or rejects
// it) fails it, gets no event, and is told why.
func TestHandshakes(t *testing.T) {
	for _, policy := range []string{"slack", "zoom", "discord", "discord-events"} {
		t.Run(policy, func(t *testing.T) {
			secret := "3c7a6f0e1d2b4a5968778695a4b3c2d1e0f1a2b3c4d5e6f708192a3b4c5d6e7f"
			run := func(h http.Handler) ([]Record, *Result) {
				return collect(t, Config{Policy: policytest.Lookup(t, policy), Handler: h, Events: 3, Over: time.Minute, Seed: 7, Secret: secret, Handshake: true})
			}
			recs, res := run(docsHandler(t, policy, secret))
			if len(recs) < 2 || recs[1].Kind != KindHandshake {
				t.Fatalf("the first record after the run's is not the handshake: %+v", recs[1])
			}
			if hs := recs[1]; hs.HandshakeProblem != "" || hs.Handshake == "" {
				t.Fatalf("a handler written as the docs show failed the %s handshake: %s", hs.Handshake, hs.HandshakeProblem)
			}
			if res.Delivered != 3 {
				t.Fatalf("delivered %d of 3 events after a good handshake", res.Delivered)
			}

			wrong := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				io.Copy(io.Discard, r.Body)
				w.WriteHeader(http.StatusOK) // answers the handshake like an event
			})
			recs, res = run(wrong)
			hs := recs[1]
			if hs.Kind != KindHandshake || hs.HandshakeProblem == "" {
				t.Fatalf("a wrong answer passed the handshake: %+v", hs)
			}
			if res.Delivered != 0 || len(attempts(recs)) != 0 {
				t.Fatalf("events were sent to an endpoint that failed the handshake: %d delivered", res.Delivered)
			}
			end := recs[len(recs)-1]
			if !strings.Contains(end.DisabledBy, "never enabled the endpoint") || !strings.Contains(end.DisabledBy, hs.Handshake) {
				t.Errorf("the end record does not say the handshake kept the endpoint off: %q", end.DisabledBy)
			}
		})
	}
	// Without Handshake (the library's default), nothing is sent first.
	recs, _ := collect(t, Config{Policy: policytest.Lookup(t, "slack"), Handler: docsHandler(t, "slack", "s"), Events: 1, Over: time.Minute, Secret: "s"})
	for _, r := range recs {
		if r.Kind == KindHandshake {
			t.Fatal("a handshake was sent though the run did not ask for one")
		}
	}
}
