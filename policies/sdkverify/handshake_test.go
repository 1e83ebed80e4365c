package sdkverify

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/slack-go/slack"
	"github.com/slack-go/slack/slackevents"

	"github.com/retrysim/retrysim/policies"
	"github.com/retrysim/retrysim/policies/policytest"
	"github.com/retrysim/retrysim/simulator"
)

// TestSlackHandshakeAsSlackGoShowsIt: a handler written as slack-go's
// Events API example is (verify the signature, ParseEvent, answer a
// url_verification with the challenge as text, acknowledge the rest) passes
// run's handshake and then gets every event, each of which slackevents
// parses as its inner event type.
func TestSlackHandshakeAsSlackGoShowsIt(t *testing.T) {
	pol := policytest.Lookup(t, "slack")
	secret := policies.GenerateSecret("slack", 5)
	var mu sync.Mutex
	var parsed []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		sv, err := slack.NewSecretsVerifier(r.Header, secret)
		if err != nil {
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		if _, err := sv.Write(body); err != nil || sv.Ensure() != nil {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		ev, err := slackevents.ParseEvent(json.RawMessage(body), slackevents.OptionNoVerifyToken())
		if err != nil {
			w.WriteHeader(http.StatusInternalServerError)
			return
		}
		if ev.Type == slackevents.URLVerification {
			var c *slackevents.ChallengeResponse
			if err := json.Unmarshal(body, &c); err != nil {
				w.WriteHeader(http.StatusInternalServerError)
				return
			}
			w.Header().Set("Content-Type", "text")
			w.Write([]byte(c.Challenge))
			return
		}
		mu.Lock()
		parsed = append(parsed, ev.InnerEvent.Type)
		mu.Unlock()
	}))
	defer srv.Close()
	for _, typ := range policies.EventTypes(pol.Wire()) {
		mu.Lock()
		parsed = nil
		mu.Unlock()
		var hs *simulator.Record
		res, err := simulator.Run(context.Background(), simulator.Config{
			Policy: pol, URL: srv.URL + "/webhooks/slack", Events: 2, Over: time.Minute, Seed: 5, Secret: secret,
			EventType: typ, Handshake: true,
			Sink: func(r *simulator.Record) error {
				if r.Kind == simulator.KindHandshake {
					c := *r // the record is lent for the call
					hs = &c
				}
				return nil
			},
		})
		if err != nil {
			t.Fatal(err)
		}
		if hs == nil || hs.HandshakeProblem != "" {
			t.Fatalf("%s: slack-go's example failed the url_verification handshake: %+v", typ, hs)
		}
		mu.Lock()
		got := parsed
		mu.Unlock()
		if res.Delivered != 2 || len(got) != 2 || got[0] != typ {
			t.Errorf("%s: delivered %d, slackevents parsed %v", typ, res.Delivered, got)
		}
	}
}
