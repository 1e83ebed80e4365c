package sdkverify

import (
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/retrysim/retrysim/policies"
	"github.com/retrysim/retrysim/simulator"
)

// A handler that checks every delivery with the official verifier and logs
// what reached it.

// arrival is one request as the handler saw it.
type arrival struct {
	dedup  string
	err    error
	header http.Header
}

// handler verifies every request, answers the first arrival of each event
// with a 500 so that the provider retries, and later ones with success.
type handler struct {
	t      *testing.T
	wire   policies.Wire
	secret string
	ok     int

	mu       sync.Mutex
	arrivals []arrival
	seen     map[string]int
}

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	r.Body = io.NopCloser(strings.NewReader(string(body)))
	v := verifierFor(h.t, h.wire.Name())
	verr := v(r, body, h.secret)
	id, derr := h.wire.DedupID(r.Header, body)
	if derr != nil && verr == nil {
		verr = derr
	}
	h.mu.Lock()
	h.arrivals = append(h.arrivals, arrival{dedup: id, err: verr, header: r.Header.Clone()})
	h.seen[id]++
	first := h.seen[id] == 1
	h.mu.Unlock()
	switch {
	case verr != nil:
		http.Error(w, verr.Error(), http.StatusUnauthorized)
	case first:
		http.Error(w, "try again", http.StatusInternalServerError)
	default:
		w.WriteHeader(h.ok)
	}
}

// signedOnce checks that each attempt of an event that reached the handler
// carried a signature of its own in header: the provider signs every
// attempt afresh, with a new timestamp. (The two requests of a duplicated
// attempt are one attempt sent twice, with one signature.)
func signedOnce(t *testing.T, header string, records []simulator.Record, arrivals []arrival, probes map[string]bool) {
	t.Helper()
	attempts := map[string]map[int]bool{}
	for _, r := range records {
		if r.Kind == simulator.KindAttempt && r.Reached {
			if attempts[r.EventID] == nil {
				attempts[r.EventID] = map[int]bool{}
			}
			attempts[r.EventID][r.Attempt] = true
		}
	}
	sigs := map[string]map[string]bool{}
	for _, a := range arrivals {
		if probes[a.dedup] {
			continue
		}
		if sigs[a.dedup] == nil {
			sigs[a.dedup] = map[string]bool{}
		}
		sigs[a.dedup][a.header.Get(header)] = true
	}
	retried := 0
	for id, ns := range attempts {
		if len(ns) > 1 {
			retried++
		}
		if got := len(sigs[id]); got != len(ns) {
			t.Errorf("event %s: %d attempts reached the handler with %d different %s values; want one each", id, len(ns), got, header)
		}
	}
	if retried == 0 && len(attempts) > 0 && len(records) > 0 && records[0].MaxAttempt > 1 {
		t.Errorf("no event reached the handler twice: the signatures of retries were not compared")
	}
}
