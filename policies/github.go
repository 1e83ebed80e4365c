package policies

import (
	"crypto/hmac"
	"crypto/sha1"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"
)

// githubHookID is the X-GitHub-Hook-ID of the simulated hook.
const githubHookID = "482910375"

type githubWire struct{}

func init() { RegisterWire(githubWire{}) }

func (githubWire) Name() string             { return "github" }
func (githubWire) DefaultEventType() string { return "push" }

func (githubWire) NewEvent(ev *Event) {
	r := Key(ev.Seed, 1, 0)
	ev.ID = r.UUID()
}

func (githubWire) Body(ev Event) ([]byte, string) {
	r := Key(ev.Seed, 2, 0)
	repo := "acme/shop"
	body, _ := json.Marshal(map[string]any{
		"ref":    "refs/heads/main",
		"before": r.Hex(20),
		"after":  r.Hex(20),
		"repository": map[string]any{
			"id": 100000 + r.IntN(900000), "full_name": repo, "private": false,
		},
		"pusher": map[string]any{"name": "octocat"},
		"sender": map[string]any{"login": "octocat", "id": 1},
	})
	return body, "application/json"
}

func (githubWire) Header(h http.Header, d Delivery) {
	r := Key(d.Event.Seed, 3, 0)
	h.Set("User-Agent", "GitHub-Hookshot/"+r.Hex(4)[:7])
	h.Set("X-GitHub-Event", d.Event.Type)
	h.Set("X-GitHub-Delivery", d.Event.ID)
	h.Set("X-GitHub-Hook-ID", githubHookID)
	h.Set("X-Hub-Signature-256", "sha256="+hmacHex(d.Secret, d.Body))
	m := hmac.New(sha1.New, []byte(d.Secret))
	m.Write(d.Body)
	h.Set("X-Hub-Signature", "sha1="+hex.EncodeToString(m.Sum(nil)))
}

func (githubWire) DedupField() string { return "X-GitHub-Delivery header" }

func (githubWire) DedupID(h http.Header, _ []byte) (string, error) {
	if id := h.Get("X-GitHub-Delivery"); id != "" {
		return id, nil
	}
	return "", fmt.Errorf("github: no X-GitHub-Delivery header")
}

func (githubWire) Verify(h http.Header, body []byte, _, secret string, _ time.Time) error {
	got, ok := strings.CutPrefix(h.Get("X-Hub-Signature-256"), "sha256=")
	if !ok {
		return fmt.Errorf("%w: X-Hub-Signature-256 header missing", ErrBadSignature)
	}
	if !equalSig(got, hmacHex(secret, body)) {
		return fmt.Errorf("%w: X-Hub-Signature-256 does not match", ErrBadSignature)
	}
	return nil
}
