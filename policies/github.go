package policies

import (
	"crypto/hmac"
	"crypto/sha1"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
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

// githubRepoID is the id of the repository the simulated hook belongs to;
// every event of a run comes from it.
const githubRepoID = 602384117

func githubRepo() map[string]any {
	return map[string]any{
		"id": githubRepoID, "node_id": "R_kgDOI-acme", "name": "shop", "full_name": "acme/shop", "private": false,
		"owner":    map[string]any{"login": "acme", "id": 9919, "type": "Organization"},
		"html_url": "https://github.com/acme/shop", "default_branch": "main",
	}
}

// githubPush is the push payload. Its fields are in alphabetical order, the
// order encoding/json gives the keys of a map, so the bytes are the same as
// the other event types' map-built payloads would give.
type githubPush struct {
	After      string           `json:"after"`
	Before     string           `json:"before"`
	Commits    []githubCommit   `json:"commits"`
	Compare    string           `json:"compare"`
	Created    bool             `json:"created"`
	Deleted    bool             `json:"deleted"`
	Forced     bool             `json:"forced"`
	HeadCommit githubHeadCommit `json:"head_commit"`
	Pusher     githubPusher     `json:"pusher"`
	Ref        string           `json:"ref"`
	Repository json.RawMessage  `json:"repository"`
	Sender     json.RawMessage  `json:"sender"`
}

type githubCommit struct {
	Author    githubAuthor `json:"author"`
	ID        string       `json:"id"`
	Message   string       `json:"message"`
	Timestamp string       `json:"timestamp"`
}

type githubAuthor struct {
	Email    string `json:"email"`
	Name     string `json:"name"`
	Username string `json:"username"`
}

type githubHeadCommit struct {
	ID        string `json:"id"`
	Message   string `json:"message"`
	Timestamp string `json:"timestamp"`
}

type githubPusher struct {
	Email string `json:"email"`
	Name  string `json:"name"`
}

// githubRepoJSON and githubSenderJSON are the fixed repository and sender
// objects, encoded once.
var (
	githubRepoJSON   = sync.OnceValue(func() json.RawMessage { b, _ := json.Marshal(githubRepo()); return b })
	githubSenderJSON = sync.OnceValue(func() json.RawMessage { b, _ := json.Marshal(githubSender()); return b })
)

func githubSender() map[string]any {
	return map[string]any{"login": "octocat", "id": 583231, "type": "User"}
}

func (githubWire) Body(ev Event) ([]byte, string) {
	r := Key(ev.Seed, 2, 0)
	sender := githubSender()
	at := ev.Created.UTC().Format(time.RFC3339)
	num := 1 + r.IntN(900)
	// The thing the event is about (the issue, pull request, release,
	// workflow run or branch) comes from the event's object when it names
	// one, so events about it share its id, its number and its ref.
	o, hasObject := objectRand(ev, 0x91)
	objectID := func(base, n int) int {
		id := base + r.IntN(n)
		if hasObject {
			id, num = base+o.IntN(1_000_000_000), 1+o.IntN(99_999)
		}
		return id
	}
	var payload map[string]any
	switch ev.Type {
	case "ping":
		payload = map[string]any{
			"zen": "Keep it logically awesome.", "hook_id": githubHookIDNum,
			"hook": map[string]any{"type": "Repository", "id": githubHookIDNum, "active": true, "events": []string{"*"},
				"config": map[string]any{"content_type": "json", "insecure_ssl": "0", "url": "https://example.com/webhooks/github"}},
		}
	case "issues":
		id := objectID(2000000000, 100000000)
		payload = map[string]any{"action": "opened", "issue": map[string]any{
			"id": id, "number": num, "title": "Checkout fails on retry", "state": "open",
			"user": sender, "created_at": at, "updated_at": at,
		}}
	case "pull_request":
		id := objectID(1800000000, 100000000)
		payload = map[string]any{"action": "opened", "number": num, "pull_request": map[string]any{
			"id": id, "number": num, "title": "Make the webhook handler idempotent",
			"state": "open", "user": sender, "created_at": at, "updated_at": at,
			"head": map[string]any{"ref": "idempotent-handler", "sha": r.Hex(20)},
			"base": map[string]any{"ref": "main", "sha": r.Hex(20)},
		}}
	case "release":
		tag := fmt.Sprintf("v1.%d.%d", r.IntN(20), r.IntN(10))
		id := objectID(150000000, 10000000)
		if hasObject {
			tag = fmt.Sprintf("v%d.%d.%d", 1+o.IntN(9), o.IntN(100), o.IntN(100))
		}
		payload = map[string]any{"action": "published", "release": map[string]any{
			"id": id, "tag_name": tag, "name": tag, "draft": false, "prerelease": false,
			"author": sender, "created_at": at, "published_at": at,
		}}
	case "workflow_run":
		id := objectID(9000000000, 1000000000)
		payload = map[string]any{"action": "completed", "workflow_run": map[string]any{
			"id": id, "name": "CI", "head_branch": "main", "head_sha": r.Hex(20),
			"run_number": num, "event": "push", "status": "completed", "conclusion": "success",
			"created_at": at, "updated_at": at,
		}}
	default: // push, the default event: encoded from structs, as it is the hot path
		before, after := r.Hex(20), r.Hex(20)
		ref := "refs/heads/main"
		if hasObject {
			ref = "refs/heads/topic-" + o.Hex(4)
		}
		body, _ := json.Marshal(githubPush{
			After: after, Before: before,
			Commits: []githubCommit{{Author: githubAuthor{Email: "octocat@github.com", Name: "Octo Cat", Username: "octocat"},
				ID: after, Message: "Fix the checkout retry", Timestamp: at}},
			Compare:    "https://github.com/acme/shop/compare/" + before[:12] + "..." + after[:12],
			HeadCommit: githubHeadCommit{ID: after, Message: "Fix the checkout retry", Timestamp: at},
			Pusher:     githubPusher{Email: "octocat@github.com", Name: "octocat"},
			Ref:        ref, Repository: githubRepoJSON(), Sender: githubSenderJSON(),
		})
		return body, "application/json"
	}
	payload["repository"] = githubRepo()
	payload["sender"] = sender
	body, _ := json.Marshal(payload)
	return body, "application/json"
}

func (githubWire) Header(h http.Header, d Delivery) {
	r := Key(d.Event.Seed, 3, 0)
	h.Set("User-Agent", "GitHub-Hookshot/"+r.Hex(4)[:7])
	h.Set("Accept", "*/*")
	h.Set("X-GitHub-Event", d.Event.Type)
	h.Set("X-GitHub-Delivery", d.Event.ID)
	h.Set("X-GitHub-Hook-ID", githubHookID)
	h.Set("X-GitHub-Hook-Installation-Target-Type", "repository")
	h.Set("X-GitHub-Hook-Installation-Target-ID", strconv.Itoa(githubRepoID))
	h.Set("X-Hub-Signature-256", "sha256="+hmacHex(d.Secret, d.Body))
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
