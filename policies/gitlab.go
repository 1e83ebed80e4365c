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

func (gitlabWire) Body(ev Event) ([]byte, string) {
	r := Key(ev.Seed, 2, 0)
	at := ev.Created.UTC().Format("2006-01-02 15:04:05 UTC")
	project := map[string]any{
		"id": 4242, "name": "shop", "path_with_namespace": "acme/shop", "default_branch": "main",
		"web_url": "https://gitlab.example.com/acme/shop",
	}
	user := map[string]any{"id": 7, "name": "Ada Lovelace", "username": "ada", "email": "[REDACTED]"}
	payload := map[string]any{"object_kind": ev.Type, "event_type": ev.Type, "project": project}
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
		payload["user"] = user
		id := objectID(90000, 9999)
		payload["object_attributes"] = map[string]any{"id": id, "iid": iid, "title": "Checkout fails on retry", "state": "opened", "action": "open", "created_at": at, "updated_at": at}
	case "merge_request":
		payload["user"] = user
		id := objectID(80000, 9999)
		payload["object_attributes"] = map[string]any{"id": id, "iid": iid, "title": "Make the webhook handler idempotent", "state": "opened", "action": "open",
			"source_branch": "idempotent-handler", "target_branch": "main", "created_at": at, "updated_at": at}
	case "pipeline":
		payload["user"] = user
		id := objectID(700000, 99999)
		payload["object_attributes"] = map[string]any{"id": id, "ref": "main", "sha": r.Hex(20), "status": "success", "created_at": at, "finished_at": at}
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
		payload["event_name"] = ev.Type
		payload["before"], payload["after"], payload["ref"], payload["checkout_sha"] = before, after, ref, after
		payload["user_id"], payload["user_name"], payload["user_username"] = 7, "Ada Lovelace", "ada"
		payload["project_id"] = 4242
		payload["commits"] = []any{map[string]any{"id": after, "message": "Fix the checkout retry\n", "timestamp": ev.Created.UTC().Format(time.RFC3339)}}
		payload["total_commits_count"] = 1
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
