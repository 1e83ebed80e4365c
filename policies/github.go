package policies

import (
	"crypto/hmac"
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// githubHookID is the X-GitHub-Hook-ID of the simulated hook.
const (
	githubHookID    = "482910375"
	githubHookIDNum = 482910375
)

type githubWire struct{}

func init() { RegisterWire(githubWire{}) }

func (githubWire) Name() string             { return "github" }
func (githubWire) DefaultEventType() string { return "push" }

func (githubWire) NewEvent(ev *Event) {
	r := Key(ev.Seed, 1, 0)
	ev.ID = r.UUID()
}

// githubTypes are the X-GitHub-Event values the GitHub wire sends, the
// default first.
var githubTypes = []string{"push", "ping", "issues", "pull_request", "release", "workflow_run"}

func (githubWire) EventTypes() []string { return githubTypes }

func (githubWire) Body(ev Event) ([]byte, string) {
	p := githubPayload(ev)
	if push, ok := p.(githubPush); ok {
		w := jsonw{b: make([]byte, 0, len(push.Repository)+len(push.Sender)+768)}
		push.appendTo(&w)
		return w.b, "application/json"
	}
	return marshalBody(p), "application/json"
}

func (githubWire) Header(h http.Header, d Delivery) {
	r := Key(d.Event.Seed, 3, 0)
	h.Set("User-Agent", "GitHub-Hookshot/"+r.Hex(4)[:7])
	h.Set("Accept", "*/*")
	h.Set("X-GitHub-Event", d.Event.Type)
	h.Set("X-GitHub-Delivery", d.Event.ID)
	// Every hook subscribed to the event gets the same X-GitHub-Delivery
	// and its own X-GitHub-Hook-ID.
	if d.Subscription == 0 {
		h.Set("X-GitHub-Hook-ID", githubHookID)
	} else {
		h.Set("X-GitHub-Hook-ID", strconv.Itoa(githubHookIDNum+d.Subscription))
	}
	h.Set("X-GitHub-Hook-Installation-Target-Type", "repository")
	h.Set("X-GitHub-Hook-Installation-Target-ID", strconv.Itoa(githubRepoID))
	var buf [80]byte
	h.Set("X-Hub-Signature-256", string(appendHMACHex(append(buf[:0], "sha256="...), d.Secret, d.Body, nil, nil)))
	m := hmac.New(sha1.New, []byte(d.Secret))
	m.Write(d.Body)
	h.Set("X-Hub-Signature", "sha1="+hex.EncodeToString(m.Sum(nil)))
}

func (githubWire) NewSecret(r *Rand) string { return r.Hex(20) }

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
