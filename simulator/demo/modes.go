package demo

import (
	"context"
	"net/http"
	"time"

	"github.com/retrysim/retrysim/simulator"
)

// amount is the cents credited per payment event.
const amount = 100

// process handles one verified delivery of event id in the handler's mode
// and reports whether it was recognised as a duplicate (and so not credited).
func (h *Handler) process(r *http.Request, id string) (dup bool, err error) {
	ctx := r.Context()
	switch h.mode {
	case Memory:
		return h.creditInMemory(ctx, id)
	case CheckThenAct:
		return h.creditCheckThenAct(ctx, id)
	case Idempotent, Unverified:
		return h.store.creditOnce(ctx, id, amount)
	case TTL:
		return h.store.creditUnlessFresh(ctx, id, amount, h.virtualNow(r), h.ttl)
	case Queue, QueueUnguarded:
		return h.q.enqueue(ctx, id)
	default:
		return false, credit(ctx, h.store.db, id, amount)
	}
}

// creditInMemory dedups in a map that lives as long as the process: exact
// while it runs, empty after a restart while the ledger in the database
// keeps every credit.
func (h *Handler) creditInMemory(ctx context.Context, id string) (bool, error) {
	h.mu.Lock()
	if _, ok := h.seen[id]; ok {
		h.mu.Unlock()
		return true, nil
	}
	h.seen[id] = struct{}{}
	h.mu.Unlock()
	if err := credit(ctx, h.store.db, id, amount); err != nil {
		h.mu.Lock()
		delete(h.seen, id)
		h.mu.Unlock()
		return false, err
	}
	return false, nil
}

// creditCheckThenAct is the race most hand-written dedup has: look the id
// up, do the work, then record the id, in three steps with no lock or
// transaction around them. Retries that come one after another are caught;
// two deliveries that overlap both find nothing and both credit.
func (h *Handler) creditCheckThenAct(ctx context.Context, id string) (bool, error) {
	seen, err := h.store.processedBefore(ctx, id)
	if err != nil || seen {
		return seen, err
	}
	// The work: a call to another service, say. Another delivery of the
	// same event that arrives now passes the check above too.
	t := time.NewTimer(h.work)
	select {
	case <-t.C:
	case <-ctx.Done():
		t.Stop()
	}
	if err := credit(ctx, h.store.db, id, amount); err != nil {
		return false, err
	}
	return false, h.store.markProcessed(ctx, id)
}

// virtualNow is the request's virtual time from the Retrysim-Virtual-Time
// header, so that a TTL measured in days expires during a simulated run
// that takes seconds; without the header it is the wall clock.
func (h *Handler) virtualNow(r *http.Request) time.Time {
	if v := r.Header.Get(simulator.VirtualTimeHeader); v != "" {
		if t, err := time.Parse(time.RFC3339Nano, v); err == nil {
			return t
		}
	}
	return h.now()
}
