package scenarios_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/retrysim/retrysim/policies"
	"github.com/retrysim/retrysim/scenarios"
	"github.com/retrysim/retrysim/simulator"
)

// The fault tests run the engine against a real handler on 127.0.0.1 and
// check, per event, the exact (outcome, reached_handler) pair of every
// attempt and the arrivals the handler itself logged.

// pair is what a test expects of one attempt.
type pair struct {
	Outcome simulator.Outcome
	Reached bool
}

func (p pair) String() string { return fmt.Sprintf("(%s, %t)", p.Outcome, p.Reached) }

var (
	delivered = pair{simulator.Delivered, true}
	refused   = pair{simulator.ConnectionFailed, false}
)

// testPolicy is a small GitHub-shaped policy: four attempts, 1m, 10m and 1h
// apart, a 10s timeout. extra is added to its YAML.
func testPolicy(t testing.TB, extra string) policies.Policy {
	t.Helper()
	src := "name: test\nprovider: github\nsummary: four attempts\nschedule: {delays: [1m, 10m, 1h]}\ntimeout: 10s\nsource: test\nnotes: test\n" + extra
	p, err := policies.Decode("test-policy.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// arrival is one request the handler received.
type arrival struct {
	ID      string
	Virtual time.Time
}

// logHandler is a webhook handler that logs every arrival and answers with
// answer (200 when nil).
type logHandler struct {
	mu       sync.Mutex
	arrivals []arrival
	answer   func(w http.ResponseWriter, r *http.Request)
	// during, when set, is called with each arrival before answering.
	during func(a arrival)
}

func (h *logHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	wire, _ := policies.WireFor("github")
	id, err := wire.DedupID(r.Header, body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	vt, err := time.Parse(time.RFC3339Nano, r.Header.Get(simulator.VirtualTimeHeader))
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	a := arrival{ID: id, Virtual: vt}
	h.mu.Lock()
	h.arrivals = append(h.arrivals, a)
	h.mu.Unlock()
	if h.during != nil {
		h.during(a)
	}
	if h.answer != nil {
		h.answer(w, r)
		return
	}
	w.WriteHeader(http.StatusOK)
}

func (h *logHandler) logged() []arrival {
	h.mu.Lock()
	defer h.mu.Unlock()
	return slices.Clone(h.arrivals)
}

// outcome of a run: the records by kind.
type result struct {
	attempts []simulator.Record
	events   []simulator.Record
	restarts []simulator.Record
	res      *simulator.Result
}

// bySeq returns the (outcome, reached) pairs of each event's attempts, in
// order, copies and manual resends included.
func (r *result) bySeq() map[int][]pair {
	out := map[int][]pair{}
	for _, a := range r.attempts {
		out[a.Seq] = append(out[a.Seq], pair{a.Outcome, a.Reached})
	}
	return out
}

// runFault runs events events of policy p with scenario s against h, served
// on 127.0.0.1.
func runFault(t *testing.T, p policies.Policy, s scenarios.Scenario, h http.Handler, events int, tweak ...func(*simulator.Config)) *result {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	if !strings.HasPrefix(srv.URL, "http://127.0.0.1:") {
		t.Fatalf("test server is not on 127.0.0.1: %s", srv.URL)
	}
	out := &result{}
	cfg := simulator.Config{
		Policy: p, Scenario: s, URL: srv.URL + "/webhooks/github", Events: events, Over: time.Hour, Seed: 7,
		Secret: "test-secret",
		Sink: func(r *simulator.Record) error {
			switch r.Kind {
			case simulator.KindAttempt:
				out.attempts = append(out.attempts, *r)
			case simulator.KindEvent:
				out.events = append(out.events, *r)
			case simulator.KindRestart:
				out.restarts = append(out.restarts, *r)
			}
			return nil
		},
	}
	for _, f := range tweak {
		f(&cfg)
	}
	res, err := simulator.Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	out.res = res
	return out
}

// checkPairs compares every event's pairs with want(seq).
func checkPairs(t *testing.T, r *result, events int, want func(seq int) []pair) {
	t.Helper()
	got := r.bySeq()
	for seq := range events {
		if w := want(seq); !slices.Equal(got[seq], w) {
			t.Errorf("event %d: attempts %v, want %v", seq, got[seq], w)
		}
	}
}

// checkArrivals compares what the handler logged with the attempts the
// records say reached it: the same events at the same virtual times.
func checkArrivals(t *testing.T, r *result, h *logHandler) {
	t.Helper()
	var want []arrival
	for _, a := range r.attempts {
		if a.Reached {
			want = append(want, arrival{ID: a.EventID, Virtual: a.Time.UTC()})
		}
	}
	got := h.logged()
	for i := range got {
		got[i].Virtual = got[i].Virtual.UTC()
	}
	sortArrivals(want)
	sortArrivals(got)
	if !slices.Equal(got, want) {
		t.Errorf("the handler logged %d arrivals %v, the records say %d reached it %v", len(got), got, len(want), want)
	}
}

func sortArrivals(a []arrival) {
	slices.SortFunc(a, func(x, y arrival) int {
		if c := x.Virtual.Compare(y.Virtual); c != 0 {
			return c
		}
		return strings.Compare(x.ID, y.ID)
	})
}

// repeat returns n copies of p.
func repeat(p pair, n int) []pair {
	out := make([]pair, n)
	for i := range out {
		out[i] = p
	}
	return out
}

// same returns a want function giving every event the same pairs.
func same(p ...pair) func(int) []pair { return func(int) []pair { return p } }

// windowPairs is what an event sees when every attempt at a virtual time
// (since the start of the run) for which down is true is refused, under
// testPolicy (attempts at +0, +1m, +11m, +71m).
func windowPairs(first time.Duration, down func(at time.Duration) bool) []pair {
	var out []pair
	for _, off := range []time.Duration{0, time.Minute, 11 * time.Minute, 71 * time.Minute} {
		if !down(first + off) {
			return append(out, delivered)
		}
		out = append(out, refused)
	}
	return out
}

// firsts returns each event's first attempt, since the start of the run.
func firsts(r *result) map[int]time.Duration {
	out := map[int]time.Duration{}
	for _, a := range r.attempts {
		if a.Attempt == 1 {
			out[a.Seq] = a.Time.Sub(simulator.DefaultStart())
		}
	}
	return out
}
