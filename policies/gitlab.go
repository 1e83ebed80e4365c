package policies

import (
	"fmt"
	"net/http"
	"time"
)

type gitlabWire struct{}

func init() { RegisterWire(gitlabWire{}) }

func (gitlabWire) Name() string             { return "gitlab" }
func (gitlabWire) DefaultEventType() string { return "push" }

// gitlabEvents maps the object_kind values the GitLab wire sends to their
// X-Gitlab-Event header.
var gitlabEvents = map[string]string{
	"push": "Push Hook", "tag_push": "Tag Push Hook", "issue": "Issue Hook",
	"merge_request": "Merge Request Hook", "pipeline": "Pipeline Hook",
}

func (gitlabWire) EventTypes() []string {
	return []string{"push", "tag_push", "issue", "merge_request", "pipeline"}
}

// gitlabHookUUID is the X-Gitlab-Webhook-UUID of the simulated hook.
const gitlabHookUUID = "5c5b7a3e-4f0d-4b6e-9a51-2f1e0c3d7b91"

// NewEvent makes the Idempotency-Key GitLab keeps across retries of one
// event: the dedup id.
func (gitlabWire) NewEvent(ev *Event) {
	r := Key(ev.Seed, 1, 0)
	ev.ID = r.UUID()
}

func (gitlabWire) NewSecret(r *Rand) string { return r.Alnum(32) }

// gitlabEvent is a GitLab webhook payload: the push fields for push and
// tag_push, object_attributes for the others. Fields in alphabetical order.
type gitlabEvent struct {
	After             string            `json:"after,omitempty"`
	Before            string            `json:"before,omitempty"`
	CheckoutSHA       string            `json:"checkout_sha,omitempty"`
	Commits           []gitlabCommit    `json:"commits,omitempty"`
	EventName         string            `json:"event_name,omitempty"`
	EventType         string            `json:"event_type"`
	ObjectAttributes  *gitlabAttributes `json:"object_attributes,omitempty"`
	ObjectKind        string            `json:"object_kind"`
	Project           gitlabProject     `json:"project"`
	ProjectID         int               `json:"project_id,omitempty"`
	Ref               string            `json:"ref,omitempty"`
	TotalCommitsCount int               `json:"total_commits_count,omitempty"`
	User              *gitlabUser       `json:"user,omitempty"`
	UserID            int               `json:"user_id,omitempty"`
	UserName          string            `json:"user_name,omitempty"`
	UserUsername      string            `json:"user_username,omitempty"`
}

type gitlabAttributes struct {
	Action       string `json:"action,omitempty"`
	CreatedAt    string `json:"created_at"`
	FinishedAt   string `json:"finished_at,omitempty"`
	ID           int    `json:"id"`
	IID          int    `json:"iid,omitempty"`
	Ref          string `json:"ref,omitempty"`
	SHA          string `json:"sha,omitempty"`
	SourceBranch string `json:"source_branch,omitempty"`
	State        string `json:"state,omitempty"`
	Status       string `json:"status,omitempty"`
	TargetBranch string `json:"target_branch,omitempty"`
	Title        string `json:"title,omitempty"`
	UpdatedAt    string `json:"updated_at,omitempty"`
}

type gitlabProject struct {
	DefaultBranch     string `json:"default_branch"`
	ID                int    `json:"id"`
	Name              string `json:"name"`
	PathWithNamespace string `json:"path_with_namespace"`
	WebURL            string `json:"web_url"`
}

type gitlabUser struct {
	Email    string `json:"email"`
	ID       int    `json:"id"`
	Name     string `json:"name"`
	Username string `json:"username"`
}

type gitlabCommit struct {
	ID        string `json:"id"`
	Message   string `json:"message"`
	Timestamp string `json:"timestamp"`
}

func (gitlabWire) Body(ev Event) ([]byte, string) {
	r := Key(ev.Seed, 2, 0)
	at := ev.Created.UTC().Format("2006-01-02 15:04:05 UTC")
	user := &gitlabUser{ID: 7, Name: "Ada Lovelace", Username: "ada", Email: "[REDACTED]"}
	payload := gitlabEvent{ObjectKind: ev.Type, EventType: ev.Type, Project: gitlabProject{
		ID: 4242, Name: "shop", PathWithNamespace: "acme/shop", DefaultBranch: "main", WebURL: "https://gitlab.example.com/acme/shop",
	}}
	iid := 1 + r.IntN(900)
	// The thing the event is about (the issue, merge request, pipeline,
	// branch or tag) comes from the event's object when it names one, so
	// events about it share its id, iid and ref.
	o, hasObject := objectRand(ev, 0x61)
	objectID := func(base, n int) int {
		id := base + r.IntN(n)
		if hasObject {
			id, iid = 100_000_000+o.IntN(900_000_000), 1+o.IntN(99_999)
		}
		return id
	}
	switch ev.Type {
	case "issue":
		payload.User = user
		id := objectID(90000, 9999)
		payload.ObjectAttributes = &gitlabAttributes{ID: id, IID: iid, Title: "Checkout fails on retry", State: "opened", Action: "open", CreatedAt: at, UpdatedAt: at}
	case "merge_request":
		payload.User = user
		id := objectID(80000, 9999)
		payload.ObjectAttributes = &gitlabAttributes{ID: id, IID: iid, Title: "Make the webhook handler idempotent", State: "opened", Action: "open",
			SourceBranch: "idempotent-handler", TargetBranch: "main", CreatedAt: at, UpdatedAt: at}
	case "pipeline":
		payload.User = user
		id := objectID(700000, 99999)
		payload.ObjectAttributes = &gitlabAttributes{ID: id, Ref: "main", SHA: r.Hex(20), Status: "success", CreatedAt: at, FinishedAt: at}
	default: // push, tag_push
		before, after := r.Hex(20), r.Hex(20)
		ref := "refs/heads/main"
		if ev.Type == "tag_push" {
			ref = fmt.Sprintf("refs/tags/v1.%d.0", r.IntN(20))
		}
		if hasObject {
			ref = "refs/heads/topic-" + o.Hex(4)
			if ev.Type == "tag_push" {
				ref = fmt.Sprintf("refs/tags/v%d.%d.%d", 1+o.IntN(9), o.IntN(100), o.IntN(100))
			}
		}
		payload.EventName = ev.Type
		payload.Before, payload.After, payload.Ref, payload.CheckoutSHA = before, after, ref, after
		payload.UserID, payload.UserName, payload.UserUsername = 7, "Ada Lovelace", "ada"
		payload.ProjectID = 4242
		payload.Commits = []gitlabCommit{{ID: after, Message: "Fix the checkout retry\n", Timestamp: ev.Created.UTC().Format(time.RFC3339)}}
		payload.TotalCommitsCount = 1
	}
	return marshalBody(payload), "application/json"
}

func (gitlabWire) Header(h http.Header, d Delivery) {
	r := Key(d.Event.Seed, 3, 0)
	h.Set("User-Agent", "GitLab/17.5.0")
	h.Set("X-Gitlab-Event", gitlabEvents[d.Event.Type])
	h.Set("X-Gitlab-Token", d.Secret)
	h.Set("X-Gitlab-Instance", "https://gitlab.example.com")
	h.Set("X-Gitlab-Webhook-UUID", gitlabHookUUID)
	h.Set("X-Gitlab-Event-UUID", r.UUID())
	h.Set("Idempotency-Key", d.Event.ID)
}

func (gitlabWire) DedupField() string { return "Idempotency-Key header" }

func (gitlabWire) DedupID(h http.Header, _ []byte) (string, error) {
	if id := h.Get("Idempotency-Key"); id != "" {
		return id, nil
	}
	return "", fmt.Errorf("gitlab: no Idempotency-Key header")
}

// Verify compares X-Gitlab-Token with the secret: GitLab sends the token
// itself, in the clear, and signs nothing.
func (gitlabWire) Verify(h http.Header, _ []byte, _, secret string, _ time.Time) error {
	got := h.Get("X-Gitlab-Token")
	if got == "" {
		return fmt.Errorf("%w: X-Gitlab-Token header missing", ErrBadSignature)
	}
	if !equalSig(got, secret) {
		return fmt.Errorf("%w: X-Gitlab-Token does not match", ErrBadSignature)
	}
	return nil
}
