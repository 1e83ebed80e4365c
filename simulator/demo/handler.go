// Package demo is retrysim's built-in demo webhook handler: a real HTTP
// handler over a real SQLite database that credits an account for every
// payment event, in several modes that get idempotency right or wrong.
// `retrysim run` serves it when no --url is given; `retrysim demo` serves it
// standalone; the programs under examples/handlers wrap it.
//
// The modes, and what breaks each:
//
//	naive           credits on every delivery: any duplicate
//	memory          dedups in a map in the process: a restart
//	check-then-act  checks, works, then records: two overlapping deliveries
//	idempotent      unique id in the credit's transaction: nothing
//	ttl             dedup key expiring after a TTL: a retry after the TTL
//	unverified      idempotent, but no signature check: a forged request
//	queue           answers first, a worker credits later, both guarded
//	                by the dedup id: nothing
//	queue-unguarded answers first and queues every delivery, its worker
//	                credits every job: any duplicate, credited late
//
// Every mode but unverified verifies the provider's signature first (401
// when it fails), and every mode exposes its side effects at
// GET /_retrysim/effects as {"<dedup id>": <times processed>}; the queue
// modes answer {"effects": {…}, "pending": <jobs queued>}, so that a
// reader knows when their work is done.
package demo

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/retrysim/retrysim/policies"
	"github.com/retrysim/retrysim/simulator"
	"github.com/retrysim/retrysim/simulator/capture"
	"github.com/retrysim/retrysim/simulator/oracle"
)

// Mode is how the handler deals with a delivery it has seen before.
type Mode string

// The demo modes, from the most common mistake to the fix.
const (
	// Naive credits the account on every delivery.
	Naive Mode = "naive"
	// Memory remembers processed ids in a map inside the process: right
	// until the process restarts and forgets them (a deploy, a crash).
	Memory Mode = "memory"
	// CheckThenAct looks the id up in the database, does the work, then
	// records the id: two deliveries of one event that overlap both pass the
	// check before either records it.
	CheckThenAct Mode = "check-then-act"
	// Idempotent inserts the dedup id under a unique constraint in the same
	// SQLite transaction as the credit.
	Idempotent Mode = "idempotent"
	// TTL keeps the dedup id for a limited time (WithTTL, DefaultTTL), as a
	// cache key with an expiry would, measured on the virtual time of the
	// Retrysim-Virtual-Time header: a delivery that comes after the key
	// expired is processed again.
	TTL Mode = "ttl"
	// Unverified is Idempotent without the signature check: it credits a
	// forged, tampered, unsigned or stale request as readily as a real one.
	Unverified Mode = "unverified"
	// Queue answers 200 at once and credits from a queue: the webhook
	// inserts the dedup id and a job under a unique constraint in one
	// transaction, and a worker credits the job later under the same
	// guard (see queue.go).
	Queue Mode = "queue"
	// QueueUnguarded answers 200 at once and queues every delivery; its
	// worker credits every job, so a duplicate is credited again, after
	// the answer.
	QueueUnguarded Mode = "queue-unguarded"
)

// Modes lists the modes, in the order help shows them.
func Modes() []Mode {
	return []Mode{Naive, Memory, CheckThenAct, Idempotent, TTL, Unverified, Queue, QueueUnguarded}
}

// DefaultTTL is how long the ttl mode keeps a dedup id unless WithTTL says
// otherwise: five minutes, a common choice and far shorter than any
// provider's retry window.
const DefaultTTL = 5 * time.Minute

// DefaultWork is how long the check-then-act mode works between looking the
// id up and recording it (a call to a payment API, say) unless WithWork says
// otherwise.
const DefaultWork = 100 * time.Millisecond

// DefaultAddr is where a demo handler listens unless told otherwise, as a
// standalone program (Program) and as 'retrysim demo'.
const DefaultAddr = "127.0.0.1:8080"

// EffectsPath is where the handler serves its side effects.
const EffectsPath = "/_retrysim/effects"

// WebhookPath is the prefix of the webhook endpoints: POST /webhooks/<provider>.
const WebhookPath = "/webhooks/"

// ErrUnknownMode is returned, wrapped, for a mode not in Modes.
var ErrUnknownMode = errors.New("unknown demo mode")

// ParseMode checks a mode name.
func ParseMode(s string) (Mode, error) {
	m := Mode(strings.ToLower(strings.TrimSpace(s)))
	if slices.Contains(Modes(), m) {
		return m, nil
	}
	return "", fmt.Errorf("%w %q (valid: %s)", ErrUnknownMode, s, strings.Join(ModeNames(), ", "))
}

// ModeNames are the names of Modes, in their order.
func ModeNames() []string {
	modes := Modes()
	names := make([]string, len(modes))
	for i, m := range modes {
		names[i] = string(m)
	}
	return names
}

// Handler is the demo webhook handler.
type Handler struct {
	mode    Mode
	store   *store
	secrets map[string]string
	dir     string // temporary directory to remove on Close, if any
	dbPath  string
	now     func() time.Time
	seed    uint64
	ttl     time.Duration
	work    time.Duration

	mu   sync.Mutex
	seen map[string]struct{} // the memory mode's processed ids

	q *queue // the queue modes' jobs and worker
}

// Option configures a Handler.
type Option func(*Handler)

// WithSecret sets the signing secret the handler checks for a provider.
// Without one, the handler expects the secret `retrysim run` generates from
// the seed (see WithSeed).
func WithSecret(provider, secret string) Option {
	return func(h *Handler) { h.secrets[provider] = secret }
}

// WithSeed sets the seed whose generated secrets the handler expects for
// providers without WithSecret; the default is 1, retrysim run's default.
func WithSeed(seed uint64) Option { return func(h *Handler) { h.seed = seed } }

// WithTTL sets how long the ttl mode keeps a dedup id (DefaultTTL unless
// set).
func WithTTL(d time.Duration) Option { return func(h *Handler) { h.ttl = d } }

// WithWork sets how long the check-then-act mode works between its check and
// its record (DefaultWork unless set), and how long the queue modes' worker
// waits before it takes the jobs queued (DefaultQueueDelay unless set).
func WithWork(d time.Duration) Option { return func(h *Handler) { h.work = d } }

// WithDB stores the handler's data in the SQLite file at path instead of a
// temporary one.
func WithDB(path string) Option { return func(h *Handler) { h.dbPath = path } }

// New opens a demo handler in the given mode. Its database is a fresh SQLite
// file in a temporary directory unless WithDB names one. Close removes the
// temporary one.
func New(mode Mode, opts ...Option) (*Handler, error) {
	if _, err := ParseMode(string(mode)); err != nil {
		return nil, err
	}
	h := &Handler{mode: mode, secrets: map[string]string{}, now: time.Now, seed: simulator.DefaultSeed, ttl: DefaultTTL, work: DefaultWork, seen: map[string]struct{}{}}
	if mode == Queue || mode == QueueUnguarded {
		h.work = DefaultQueueDelay
	}
	for _, o := range opts {
		o(h)
	}
	if h.ttl <= 0 {
		return nil, fmt.Errorf("demo: the ttl must be positive, got %s", h.ttl)
	}
	path := h.dbPath
	if path == "" {
		dir, err := os.MkdirTemp("", "retrysim-demo-")
		if err != nil {
			return nil, err
		}
		h.dir = dir
		path = filepath.Join(dir, "demo.db")
	}
	st, err := openStore(path)
	if err != nil {
		if h.dir != "" {
			os.RemoveAll(h.dir)
		}
		return nil, err
	}
	h.store = st
	if mode == Queue || mode == QueueUnguarded {
		if h.q, err = startQueue(st, h.work, mode == Queue); err != nil {
			st.close()
			if h.dir != "" {
				os.RemoveAll(h.dir)
			}
			return nil, fmt.Errorf("demo store %s: %w", path, err)
		}
	}
	return h, nil
}

// Close stops the queue modes' worker, closes the database and removes a
// temporary one.
func (h *Handler) Close() error {
	if h.q != nil {
		h.q.close()
	}
	err := h.store.close()
	if h.dir != "" {
		err = errors.Join(err, os.RemoveAll(h.dir))
	}
	return err
}

// Mode returns the handler's mode.
func (h *Handler) Mode() Mode { return h.mode }

// Restart makes the handler behave as a freshly started process over the
// same database: what the process held in memory (the memory mode's
// processed ids) is gone; everything in SQLite stays. A restart hook for
// simulator.Config.Restart calls it.
func (h *Handler) Restart() {
	h.mu.Lock()
	h.seen = map[string]struct{}{}
	h.mu.Unlock()
}

// TTL returns how long the ttl mode keeps a dedup id.
func (h *Handler) TTL() time.Duration { return h.ttl }

// Effects returns how often the handler processed each event, by dedup id,
// once its work is done: the queue modes wait for their worker to empty
// the queue (or for ctx). GET /_retrysim/effects answers at once instead,
// as a user's handler would.
func (h *Handler) Effects(ctx context.Context) (map[string]int, error) {
	if h.q != nil {
		if err := h.q.drained(ctx); err != nil {
			return nil, err
		}
	}
	return h.store.effects(ctx)
}

// ServeHTTP serves POST /webhooks/<provider> and GET /_retrysim/effects.
// POST /webhooks, with no provider, tells the provider by the signature
// headers: that is where simulator.Run sends when the handler is its
// in-process target.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.URL.Path == EffectsPath && r.Method == http.MethodGet:
		h.serveEffects(w, r)
	case strings.HasPrefix(r.URL.Path, WebhookPath) && r.Method == http.MethodPost:
		h.serveWebhook(w, r, strings.TrimPrefix(r.URL.Path, WebhookPath))
	case r.URL.Path == strings.TrimSuffix(WebhookPath, "/") && r.Method == http.MethodPost:
		h.serveWebhook(w, r, "")
	default:
		http.Error(w, "POST /webhooks/<provider> or GET "+EffectsPath, http.StatusNotFound)
	}
}

func (h *Handler) serveEffects(w http.ResponseWriter, r *http.Request) {
	read, err := h.Read(r.Context())
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	if !read.HasPending {
		json.NewEncoder(w).Encode(read.Effects)
		return
	}
	json.NewEncoder(w).Encode(struct {
		Effects map[string]int `json:"effects"`
		Pending int            `json:"pending"`
	}{read.Effects, read.Pending})
}

// Read returns how often the handler processed each event, by dedup id,
// at once, as GET /_retrysim/effects does; the queue modes also say how
// many jobs are queued and not yet worked, read with the effects in one
// step, so a count of 0 pending means the effects are complete.
func (h *Handler) Read(ctx context.Context) (oracle.Reading, error) {
	if h.q == nil {
		m, err := h.store.effects(ctx)
		return oracle.Reading{Effects: m}, err
	}
	return h.q.read(ctx)
}

func (h *Handler) serveWebhook(w http.ResponseWriter, r *http.Request, provider string) {
	wire, ok := policies.WireFor(strings.Trim(provider, "/"))
	if !ok && provider != "" {
		http.Error(w, fmt.Sprintf("unknown provider %q in the path (valid: %s)", provider, strings.Join(policies.WireNames(), ", ")), http.StatusNotFound)
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 1<<20))
	if err != nil {
		http.Error(w, "cannot read body", http.StatusBadRequest)
		return
	}
	if wire == nil {
		if wire, err = simulator.DetectWire(capture.Request{Header: r.Header, Body: body}); err != nil {
			http.Error(w, "POST /webhooks/<provider>, or sign the request: "+err.Error(), http.StatusUnauthorized)
			return
		}
	}
	secret, ok := h.secrets[wire.Name()]
	if !ok {
		secret, ok = h.secrets[policies.SecretName(wire.Name())]
	}
	if !ok {
		secret = policies.GenerateSecret(wire.Name(), h.seed)
	}
	fullURL := "http://" + r.Host + r.URL.RequestURI()
	if h.mode != Unverified {
		if err := wire.Verify(r.Header, body, fullURL, secret, h.now()); err != nil {
			http.Error(w, err.Error(), http.StatusUnauthorized)
			return
		}
	}
	if status, ctype, answer, ok := policies.AnswerHandshake(wire, body, secret); ok {
		// The provider's handshake (Slack's url_verification, Zoom's
		// endpoint.url_validation, Discord's PING), answered as its docs
		// show, after the signature check as their libraries do.
		if ctype != "" {
			w.Header().Set("Content-Type", ctype)
		}
		w.WriteHeader(status)
		w.Write(answer)
		return
	}
	id, err := wire.DedupID(r.Header, body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	dup, err := h.process(r, id)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	if wire.Name() == "discord-events" {
		// Discord's webhook events count only a 204 as delivered.
		w.WriteHeader(http.StatusNoContent)
		return
	}
	w.WriteHeader(http.StatusOK)
	if dup {
		io.WriteString(w, "duplicate ignored\n")
		return
	}
	io.WriteString(w, "credited\n")
}
