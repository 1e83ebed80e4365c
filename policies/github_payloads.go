package policies

import (
	"encoding/json"
	"fmt"
	"sync"
	"time"
)

// The GitHub payloads, as @octokit/webhooks-types describes them. Fields
// are in alphabetical order, the order GitHub's own payloads do not keep
// but encoding/json gave the maps they were once built from, so that the
// bytes change only where a field was added.

// githubRepoID is the id of the repository the simulated hook belongs to;
// every event of a run comes from it.
const githubRepoID = 602384117

// githubUser is a User: the sender, a repository's owner.
type githubUser struct {
	AvatarURL         string `json:"avatar_url"`
	EventsURL         string `json:"events_url"`
	FollowersURL      string `json:"followers_url"`
	FollowingURL      string `json:"following_url"`
	GistsURL          string `json:"gists_url"`
	GravatarID        string `json:"gravatar_id"`
	HTMLURL           string `json:"html_url"`
	ID                int    `json:"id"`
	Login             string `json:"login"`
	NodeID            string `json:"node_id"`
	OrganizationsURL  string `json:"organizations_url"`
	ReceivedEventsURL string `json:"received_events_url"`
	ReposURL          string `json:"repos_url"`
	SiteAdmin         bool   `json:"site_admin"`
	StarredURL        string `json:"starred_url"`
	SubscriptionsURL  string `json:"subscriptions_url"`
	Type              string `json:"type"`
	URL               string `json:"url"`
}

func newGitHubUser(login string, id int, nodeID, typ string) githubUser {
	api := "https://api.github.com/users/" + login
	return githubUser{
		AvatarURL: fmt.Sprintf("https://avatars.githubusercontent.com/u/%d?v=4", id), EventsURL: api + "/events{/privacy}",
		FollowersURL: api + "/followers", FollowingURL: api + "/following{/other_user}", GistsURL: api + "/gists{/gist_id}",
		HTMLURL: "https://github.com/" + login, ID: id, Login: login, NodeID: nodeID, OrganizationsURL: api + "/orgs",
		ReceivedEventsURL: api + "/received_events", ReposURL: api + "/repos", StarredURL: api + "/starred{/owner}{/repo}",
		SubscriptionsURL: api + "/subscriptions", Type: typ, URL: api,
	}
}

type githubRepository struct {
	DefaultBranch string     `json:"default_branch"`
	FullName      string     `json:"full_name"`
	HTMLURL       string     `json:"html_url"`
	ID            int        `json:"id"`
	Name          string     `json:"name"`
	NodeID        string     `json:"node_id"`
	Owner         githubUser `json:"owner"`
	Private       bool       `json:"private"`
}

// githubRepoJSON and githubSenderJSON are the fixed repository and sender
// objects, encoded once.
var (
	githubRepoJSON = sync.OnceValue(func() json.RawMessage {
		return marshalBody(githubRepository{
			DefaultBranch: "main", FullName: "acme/shop", HTMLURL: "https://github.com/acme/shop", ID: githubRepoID,
			Name: "shop", NodeID: "R_kgDOI-acme", Owner: newGitHubUser("acme", 9919, "O_kgDNJr8", "Organization"),
		})
	})
	githubSenderJSON = sync.OnceValue(func() json.RawMessage {
		return marshalBody(newGitHubUser("octocat", 583231, "MDQ6VXNlcjU4MzIzMQ==", "User"))
	})
)

type githubPush struct {
	After        string              `json:"after"`
	Before       string              `json:"before"`
	Commits      []githubCommit      `json:"commits"`
	Compare      string              `json:"compare"`
	Created      bool                `json:"created"`
	Deleted      bool                `json:"deleted"`
	Forced       bool                `json:"forced"`
	HeadCommit   githubCommit        `json:"head_commit"`
	Installation *githubInstallation `json:"installation,omitempty"`
	Pusher       githubPerson        `json:"pusher"`
	Ref          string              `json:"ref"`
	Repository   json.RawMessage     `json:"repository"`
	Sender       json.RawMessage     `json:"sender"`
}

type githubCommit struct {
	Author    githubPerson `json:"author"`
	Committer githubPerson `json:"committer"`
	ID        string       `json:"id"`
	Message   string       `json:"message"`
	Timestamp string       `json:"timestamp"`
}

// githubPerson is a Committer: a commit's author or committer, or the
// pusher.
type githubPerson struct {
	Email    string `json:"email"`
	Name     string `json:"name"`
	Username string `json:"username,omitempty"`
}

// appendTo writes the push payload (the default event, and the hot one)
// without reflection: the same bytes as encoding/json's (a test says so),
// with the repository and sender copied in as they were encoded once.
func (p *githubPush) appendTo(w *jsonw) {
	w.open("")
	w.str("after", p.After)
	w.str("before", p.Before)
	w.openArray("commits")
	for i := range p.Commits {
		p.Commits[i].appendTo(w, "")
	}
	w.closeArray()
	w.str("compare", p.Compare)
	w.bool("created", p.Created)
	w.bool("deleted", p.Deleted)
	w.bool("forced", p.Forced)
	p.HeadCommit.appendTo(w, "head_commit")
	if in := p.Installation; in != nil {
		w.open("installation")
		w.int("id", in.ID)
		w.str("node_id", in.NodeID)
		w.close()
	}
	p.Pusher.appendTo(w, "pusher")
	w.str("ref", p.Ref)
	w.raw("repository", p.Repository)
	w.raw("sender", p.Sender)
	w.close()
}

func (c *githubCommit) appendTo(w *jsonw, k string) {
	w.open(k)
	c.Author.appendTo(w, "author")
	c.Committer.appendTo(w, "committer")
	w.str("id", c.ID)
	w.str("message", c.Message)
	w.str("timestamp", c.Timestamp)
	w.close()
}

func (p githubPerson) appendTo(w *jsonw, k string) {
	w.open(k)
	w.str("email", p.Email)
	w.str("name", p.Name)
	if p.Username != "" {
		w.str("username", p.Username)
	}
	w.close()
}

// githubEnvelope is what every event but push carries around its object:
// the action, the repository and the sender.
type githubEnvelope struct {
	Action       string              `json:"action,omitempty"`
	Hook         *githubHook         `json:"hook,omitempty"`
	HookID       int                 `json:"hook_id,omitempty"`
	Installation *githubInstallation `json:"installation,omitempty"`
	Issue        *githubIssue        `json:"issue,omitempty"`
	Number       int                 `json:"number,omitempty"`
	PullRequest  *githubPullRequest  `json:"pull_request,omitempty"`
	Release      *githubRelease      `json:"release,omitempty"`
	Repository   json.RawMessage     `json:"repository"`
	Sender       json.RawMessage     `json:"sender"`
	WorkflowRun  *githubWorkflowRun  `json:"workflow_run,omitempty"`
	Zen          string              `json:"zen,omitempty"`
}

type githubHook struct {
	Active bool             `json:"active"`
	Config githubHookConfig `json:"config"`
	Events []string         `json:"events"`
	ID     int              `json:"id"`
	Type   string           `json:"type"`
}

type githubHookConfig struct {
	ContentType string `json:"content_type"`
	InsecureSSL string `json:"insecure_ssl"`
	URL         string `json:"url"`
}

type githubIssue struct {
	CreatedAt string          `json:"created_at"`
	ID        int64           `json:"id"`
	Number    int             `json:"number"`
	State     string          `json:"state"`
	Title     string          `json:"title"`
	UpdatedAt string          `json:"updated_at"`
	User      json.RawMessage `json:"user"`
}

type githubPullRequest struct {
	Base      githubBranch    `json:"base"`
	CreatedAt string          `json:"created_at"`
	Head      githubBranch    `json:"head"`
	ID        int64           `json:"id"`
	Number    int             `json:"number"`
	State     string          `json:"state"`
	Title     string          `json:"title"`
	UpdatedAt string          `json:"updated_at"`
	User      json.RawMessage `json:"user"`
}

// githubBranch is a pull request's head or base: the branch, its commit,
// and the repository it lives in.
type githubBranch struct {
	Ref  string          `json:"ref"`
	Repo json.RawMessage `json:"repo"`
	SHA  string          `json:"sha"`
}

type githubRelease struct {
	Author      json.RawMessage `json:"author"`
	CreatedAt   string          `json:"created_at"`
	Draft       bool            `json:"draft"`
	ID          int64           `json:"id"`
	Name        string          `json:"name"`
	Prerelease  bool            `json:"prerelease"`
	PublishedAt string          `json:"published_at"`
	TagName     string          `json:"tag_name"`
}

type githubWorkflowRun struct {
	Conclusion string `json:"conclusion"`
	CreatedAt  string `json:"created_at"`
	Event      string `json:"event"`
	HeadBranch string `json:"head_branch"`
	HeadSHA    string `json:"head_sha"`
	ID         int64  `json:"id"`
	Name       string `json:"name"`
	RunNumber  int    `json:"run_number"`
	Status     string `json:"status"`
	UpdatedAt  string `json:"updated_at"`
}

// githubPayload builds the event's payload for its type.
func githubPayload(ev Event) any {
	r := Key(ev.Seed, 2, 0)
	sender := githubSenderJSON()
	at := ev.Created.UTC().Format(time.RFC3339)
	num := 1 + r.IntN(900)
	// The thing the event is about (the issue, pull request, release,
	// workflow run or branch) comes from the event's object when it names
	// one, so events about it share its id, its number and its ref.
	o, hasObject := objectRand(ev, 0x91)
	objectID := func(base, n int64) int64 {
		id := base + r.Int64N(n)
		if hasObject {
			id, num = base+o.Int64N(1_000_000_000), 1+o.IntN(99_999)
		}
		return id
	}
	p := githubEnvelope{Repository: githubRepoJSON(), Sender: sender, Installation: githubInstallationOf(ev)}
	switch ev.Type {
	case "ping":
		p.Zen, p.HookID = "Keep it logically awesome.", githubHookIDNum
		p.Hook = &githubHook{Type: "Repository", ID: githubHookIDNum, Active: true, Events: []string{"*"},
			Config: githubHookConfig{ContentType: "json", InsecureSSL: "0", URL: "https://example.com/webhooks/github"}}
	case "issues":
		id := objectID(2000000000, 100000000)
		p.Action = "opened"
		p.Issue = &githubIssue{ID: id, Number: num, Title: "Checkout fails on retry", State: "open",
			User: sender, CreatedAt: at, UpdatedAt: at}
	case "pull_request":
		id := objectID(1800000000, 100000000)
		p.Action, p.Number = "opened", num
		p.PullRequest = &githubPullRequest{ID: id, Number: num, Title: "Make the webhook handler idempotent",
			State: "open", User: sender, CreatedAt: at, UpdatedAt: at,
			Head: githubBranch{Ref: "idempotent-handler", SHA: r.Hex(20), Repo: githubRepoJSON()},
			Base: githubBranch{Ref: "main", SHA: r.Hex(20), Repo: githubRepoJSON()}}
	case "release":
		tag := fmt.Sprintf("v1.%d.%d", r.IntN(20), r.IntN(10))
		id := objectID(150000000, 10000000)
		if hasObject {
			tag = fmt.Sprintf("v%d.%d.%d", 1+o.IntN(9), o.IntN(100), o.IntN(100))
		}
		p.Action = "published"
		p.Release = &githubRelease{ID: id, TagName: tag, Name: tag, Author: sender, CreatedAt: at, PublishedAt: at}
	case "workflow_run":
		id := objectID(9000000000, 1000000000)
		p.Action = "completed"
		p.WorkflowRun = &githubWorkflowRun{ID: id, Name: "CI", HeadBranch: "main", HeadSHA: r.Hex(20),
			RunNumber: num, Event: "push", Status: "completed", Conclusion: "success", CreatedAt: at, UpdatedAt: at}
	default: // push, the default event
		before, after := r.Hex(20), r.Hex(20)
		ref := "refs/heads/main"
		if hasObject {
			ref = "refs/heads/topic-" + o.Hex(4)
		}
		octo := githubPerson{Email: "octocat@github.com", Name: "Octo Cat", Username: "octocat"}
		commit := githubCommit{Author: octo, Committer: octo, ID: after, Message: "Fix the checkout retry", Timestamp: at}
		return githubPush{
			After: after, Before: before, Commits: []githubCommit{commit},
			Compare:    "https://github.com/acme/shop/compare/" + before[:12] + "..." + after[:12],
			HeadCommit: commit, Pusher: githubPerson{Email: "octocat@github.com", Name: "octocat"},
			Ref: ref, Repository: githubRepoJSON(), Sender: sender, Installation: githubInstallationOf(ev),
		}
	}
	return p
}
