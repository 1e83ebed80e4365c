package policies

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"strings"
)

// Handshake is the request a provider sends when an endpoint is set up,
// before any event, and the answer it checks: Slack's url_verification
// challenge, Zoom's endpoint.url_validation, Discord's PING. An endpoint
// that answers it wrongly is never enabled, and no event reaches it.
type Handshake struct {
	// Name is the provider's name for it, e.g. "url_verification".
	Name string
	// Event is what the request is signed as (its id and seed).
	Event Event
	// Body and ContentType are the request's.
	Body        []byte
	ContentType string
	// Expect says in words what answer the provider accepts.
	Expect string
	check  func(status int, h http.Header, body []byte) error
}

// Check reports why an answer is not one the provider accepts, nil when it
// is.
func (hs Handshake) Check(status int, h http.Header, body []byte) error {
	return hs.check(status, h, body)
}

// Handshaker is implemented by wire formats whose provider sends a
// handshake when the endpoint is set up.
type Handshaker interface {
	// Handshake builds the handshake for a run keyed by seed, whose
	// answer depends on secret where the provider's does (Zoom).
	Handshake(seed uint64, secret string) Handshake
	// AnswerHandshake is the answer a handler written as the provider's
	// docs show gives to body, and false when body is no handshake.
	AnswerHandshake(body []byte, secret string) (status int, contentType string, answer []byte, ok bool)
}

// HandshakeOf returns w's handshake for a run keyed by seed, and false when
// its provider sends none.
func HandshakeOf(w Wire, seed uint64, secret string) (Handshake, bool) {
	if h, ok := w.(Handshaker); ok {
		return h.Handshake(seed, secret), true
	}
	return Handshake{}, false
}

// AnswerHandshake is the answer a handler written as w's provider documents
// gives to a handshake body, and false when body is none (or w's provider
// sends none).
func AnswerHandshake(w Wire, body []byte, secret string) (status int, contentType string, answer []byte, ok bool) {
	if h, ok := w.(Handshaker); ok {
		return h.AnswerHandshake(body, secret)
	}
	return 0, "", nil, false
}

// handshakeEvent is the event a handshake is signed as.
func handshakeEvent(w Wire, seed uint64) (Event, Rand) {
	r := Key(seed, 0x4a5d, 0x5ec)
	ev := Event{Seq: -1, Seed: r.Uint64(), Type: "handshake"}
	w.NewEvent(&ev)
	return ev, r
}

func wantStatus(status int, want ...int) error {
	for _, w := range want {
		if status == w {
			return nil
		}
	}
	if status == 0 {
		return fmt.Errorf("got no answer")
	}
	return fmt.Errorf("answered %d", status)
}

// Slack: {"token", "challenge", "type": "url_verification"}, answered 200
// with the challenge as plain text, as a form (challenge=…) or as JSON
// ({"challenge": …}), as the Events API docs allow.

type slackChallenge struct {
	Token     string `json:"token"`
	Challenge string `json:"challenge"`
	Type      string `json:"type"`
}

func (w slackWire) Handshake(seed uint64, _ string) Handshake {
	ev, r := handshakeEvent(w, seed)
	challenge := r.Alnum(48)
	return Handshake{
		Name: "url_verification", Event: ev, ContentType: "application/json",
		Body:   marshalBody(slackChallenge{Token: "Jhj5dZrVaK7ZwHHjRyZWjbDl", Challenge: challenge, Type: "url_verification"}),
		Expect: "200 with the challenge (as text, a form or JSON)",
		check: func(status int, h http.Header, body []byte) error {
			if err := wantStatus(status, 200); err != nil {
				return err
			}
			got := strings.TrimSpace(string(body))
			ctype, _, _ := mime.ParseMediaType(h.Get("Content-Type"))
			switch {
			case got == challenge:
				return nil
			case ctype == "application/json":
				var j struct {
					Challenge string `json:"challenge"`
				}
				if json.Unmarshal(body, &j) == nil && j.Challenge == challenge {
					return nil
				}
			case ctype == "application/x-www-form-urlencoded":
				if f, err := url.ParseQuery(got); err == nil && f.Get("challenge") == challenge {
					return nil
				}
			}
			return fmt.Errorf("answered 200 without the challenge")
		},
	}
}

func (slackWire) AnswerHandshake(body []byte, _ string) (int, string, []byte, bool) {
	var c slackChallenge
	if json.Unmarshal(body, &c) != nil || c.Type != "url_verification" {
		return 0, "", nil, false
	}
	return 200, "application/json", marshalBody(map[string]string{"challenge": c.Challenge}), true
}

// Zoom: endpoint.url_validation with a plainToken, answered 200 with JSON
// {"plainToken", "encryptedToken": hex HMAC-SHA256(secret token, plainToken)}.

type zoomValidation struct {
	Payload struct {
		PlainToken string `json:"plainToken"`
	} `json:"payload"`
	EventTS int64  `json:"event_ts"`
	Event   string `json:"event"`
}

type zoomValidationAnswer struct {
	PlainToken     string `json:"plainToken"`
	EncryptedToken string `json:"encryptedToken"`
}

func (w zoomWire) Handshake(seed uint64, secret string) Handshake {
	ev, r := handshakeEvent(w, seed)
	var v zoomValidation
	v.Payload.PlainToken, v.Event, v.EventTS = r.Alnum(22), "endpoint.url_validation", 1_700_000_000_000+int64(r.IntN(100_000_000))
	want := hmacHex(secret, []byte(v.Payload.PlainToken))
	return Handshake{
		Name: "endpoint.url_validation", Event: ev, ContentType: "application/json; charset=utf-8", Body: marshalBody(v),
		Expect: "200 with JSON plainToken and encryptedToken (its HMAC-SHA256 under the secret token, hex)",
		check: func(status int, _ http.Header, body []byte) error {
			if err := wantStatus(status, 200, 204); err != nil {
				return err
			}
			var a zoomValidationAnswer
			switch {
			case json.Unmarshal(body, &a) != nil:
				return fmt.Errorf("answered %d without JSON", status)
			case a.PlainToken != v.Payload.PlainToken:
				return fmt.Errorf("answered without the plainToken")
			case !hmac.Equal([]byte(a.EncryptedToken), []byte(want)):
				return fmt.Errorf("answered an encryptedToken that is not the plainToken's HMAC-SHA256 under the secret token")
			}
			return nil
		},
	}
}

func (zoomWire) AnswerHandshake(body []byte, secret string) (int, string, []byte, bool) {
	var v zoomValidation
	if json.Unmarshal(body, &v) != nil || v.Event != "endpoint.url_validation" {
		return 0, "", nil, false
	}
	m := hmac.New(sha256.New, []byte(secret))
	m.Write([]byte(v.Payload.PlainToken))
	return 200, "application/json", marshalBody(zoomValidationAnswer{PlainToken: v.Payload.PlainToken, EncryptedToken: hex.EncodeToString(m.Sum(nil))}), true
}

// Discord interactions: a PING interaction, answered 200 with {"type": 1}
// (a PONG).

func (w discordWire) Handshake(seed uint64, _ string) Handshake {
	ev, _ := handshakeEvent(w, seed)
	ev.Type = "PING"
	body, ctype := w.Body(ev)
	return Handshake{
		Name: "PING", Event: ev, Body: body, ContentType: ctype, Expect: `200 with {"type": 1}`,
		check: func(status int, _ http.Header, body []byte) error {
			if err := wantStatus(status, 200); err != nil {
				return err
			}
			var a struct {
				Type int `json:"type"`
			}
			if json.Unmarshal(body, &a) != nil || a.Type != 1 {
				return fmt.Errorf("answered 200 without {\"type\": 1}")
			}
			return nil
		},
	}
}

func (discordWire) AnswerHandshake(body []byte, _ string) (int, string, []byte, bool) {
	var in struct {
		Type int `json:"type"`
	}
	if json.Unmarshal(body, &in) != nil || in.Type != 1 {
		return 0, "", nil, false
	}
	return 200, "application/json", []byte(`{"type":1}`), true
}

// Discord webhook events: {"version": 1, "application_id", "type": 0}, a
// PING, answered 204 with no body.

func (w discordEventsWire) Handshake(seed uint64, _ string) Handshake {
	ev, _ := handshakeEvent(w, seed)
	return Handshake{
		Name: "PING", Event: ev, ContentType: "application/json", Expect: "204",
		Body:  marshalBody(discordWebhookEvent{ApplicationID: discordApp, Type: 0, Version: 1}),
		check: func(status int, _ http.Header, _ []byte) error { return wantStatus(status, 204) },
	}
}

func (discordEventsWire) AnswerHandshake(body []byte, _ string) (int, string, []byte, bool) {
	var in struct {
		Type  int             `json:"type"`
		Event json.RawMessage `json:"event"`
	}
	if json.Unmarshal(body, &in) != nil || in.Type != 0 || len(bytes.TrimSpace(in.Event)) > 0 {
		return 0, "", nil, false
	}
	return 204, "", nil, true
}
