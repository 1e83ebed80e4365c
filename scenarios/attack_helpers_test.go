package scenarios_test

import (
	"bytes"
	"context"
	"io"
	"maps"
	"net/http"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/retrysim/retrysim/policies"
	"github.com/retrysim/retrysim/scenarios/scenariotest"
	"github.com/retrysim/retrysim/simulator"
)

// The attack tests run the engine against a handler that logs every request
// it gets, checks its signature with the run's secret the way a careful
// handler does, and counts its side effects by dedup id.

// testSecret is the secret runFault signs with.
const testSecret = "test-secret"

// received is one request the attack handler got.
type received struct {
	ID     string
	Header http.Header
	Body   []byte
	URL    string
	// Verify is what the wire's Verify said about it when it arrived.
	Verify error
}

// attackHandler answers 401 to a request whose signature fails (unless
// accept is set: a handler that checks nothing), and otherwise 200 with
// one side effect per request (none for an id seen before, with dedup).
type attackHandler struct {
	wire   policies.Wire
	accept bool
	dedup  bool

	mu      sync.Mutex
	got     []received
	effects map[string]int
}

func (h *attackHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	id, _ := h.wire.DedupID(r.Header, body)
	url := "http://" + r.Host + r.URL.RequestURI()
	rc := received{ID: id, Header: r.Header.Clone(), Body: body, URL: url, Verify: h.wire.Verify(r.Header, body, url, testSecret, time.Now())}
	h.mu.Lock()
	defer h.mu.Unlock()
	h.got = append(h.got, rc)
	if rc.Verify != nil && !h.accept {
		w.WriteHeader(http.StatusUnauthorized)
		return
	}
	if h.effects == nil {
		h.effects = map[string]int{}
	}
	if !h.dedup || h.effects[id] == 0 {
		h.effects[id]++
	}
	w.WriteHeader(http.StatusOK)
}

// oracle is the handler's effects oracle.
func (h *attackHandler) oracle(context.Context) (map[string]int, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return maps.Clone(h.effects), nil
}

// requests returns what the handler got for dedup id id, in order.
func (h *attackHandler) requests(id string) []received {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []received
	for _, r := range h.got {
		if r.ID == id {
			out = append(out, r)
		}
	}
	return out
}

// providerPolicy is a small policy for provider: four attempts, 1m, 10m and
// 1h apart, a 10s timeout.
func providerPolicy(t testing.TB, provider string) policies.Policy {
	t.Helper()
	src := "name: test-" + provider + "\nprovider: " + provider + "\nsummary: four attempts\nschedule: {delays: [1m, 10m, 1h]}\ntimeout: 10s\nsource: test\nnotes: test\n"
	p, err := policies.Decode("test-policy.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// runAttack runs events events of provider under scenario src against h,
// with h as the effects oracle.
func runAttack(t *testing.T, provider, src string, h *attackHandler, events int) *attackResult {
	t.Helper()
	w, ok := policies.WireFor(provider)
	if !ok {
		t.Fatalf("no wire %s", provider)
	}
	h.wire = w
	var all []simulator.Record
	r := runFault(t, providerPolicy(t, provider), scenariotest.Faults(t, src), h, events, func(c *simulator.Config) {
		c.Effects = h.oracle
		// The handler counts its effects before it answers, so they are
		// settled at once: a short quiet window is enough to see that.
		c.SettleQuiet = 20 * time.Millisecond
		sink := c.Sink
		c.Sink = func(rec *simulator.Record) error { all = append(all, *rec); return sink(rec) }
	})
	out := &attackResult{result: r, ids: map[string]bool{}}
	for _, rec := range all {
		switch rec.Kind {
		case simulator.KindAttack:
			out.attacks = append(out.attacks, rec)
		case simulator.KindAttempt:
			out.ids[rec.EventID] = true
		}
	}
	return out
}

type attackResult struct {
	*result
	attacks []simulator.Record
	ids     map[string]bool // the workload's dedup ids
}

// sent returns the attack records of requests actually sent.
func (r *attackResult) sent() []simulator.Record {
	var out []simulator.Record
	for _, a := range r.attacks {
		if a.NotApplicable == "" {
			out = append(out, a)
		}
	}
	return out
}

// checkSent checks the attack records of a run that sent attack beside
// attempt n of each of the events seqs: one record each, of that type, on
// an id of its own (never one of the workload's, never repeated), and
// answered want by the handler, which got the request.
func checkSent(t *testing.T, r *attackResult, h *attackHandler, attack string, seqs []int, n, want int) []simulator.Record {
	t.Helper()
	sent := r.sent()
	var got []int
	seen := map[string]bool{}
	for _, a := range sent {
		got = append(got, a.Seq)
		if a.Attack != attack || a.Attempt != n {
			t.Errorf("attack record %s beside attempt %d, want %s beside attempt %d", a.Attack, a.Attempt, attack, n)
		}
		if r.ids[a.EventID] || seen[a.EventID] || a.EventID == "" {
			t.Errorf("attack on dedup id %q: not an id of its own", a.EventID)
		}
		seen[a.EventID] = true
		if a.HandlerStatus != want || !a.Reached {
			t.Errorf("%s: handler status %d (reached %t), want %d", attack, a.HandlerStatus, a.Reached, want)
		}
		if len(h.requests(a.EventID)) == 0 {
			t.Errorf("%s on %s: the handler never got it", attack, a.EventID)
		}
	}
	if !slices.Equal(got, seqs) {
		t.Errorf("attacks beside events %v, want %v", got, seqs)
	}
	return sent
}

// sameBytes reports whether two requests carry the same body and headers,
// the virtual-time header aside.
func sameBytes(a, b received) bool {
	ha, hb := a.Header.Clone(), b.Header.Clone()
	ha.Del(simulator.VirtualTimeHeader)
	hb.Del(simulator.VirtualTimeHeader)
	if !bytes.Equal(a.Body, b.Body) || len(ha) != len(hb) {
		return false
	}
	for k := range ha {
		if !slices.Equal(ha[k], hb[k]) {
			return false
		}
	}
	return true
}
