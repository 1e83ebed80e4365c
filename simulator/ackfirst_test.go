package simulator_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/retrysim/retrysim/policies"
	"github.com/retrysim/retrysim/policies/policytest"
	"github.com/retrysim/retrysim/report"
	"github.com/retrysim/retrysim/scenarios/scenariotest"
	"github.com/retrysim/retrysim/simulator"
)

// jobTime is how long the ack-first handler's one worker spends on a job:
// longer than the 2s quiet window that once let the engine stop reading
// while the worker was between two credits.
const jobTime = 3 * time.Second

// ackFirst is a handler written apart from the demo: it answers 200 at
// once and queues the delivery; one worker takes the jobs in order,
// jobTime each, and credits each (naive) or only an id's first (guarded).
// Its worker runs on a wall clock the test controls: a job queued at t is
// done at max(t, the previous job's end) + jobTime, and the oracle counts
// the jobs done by the clock's now. So a run costs no real waiting, and
// the gaps between credits are exactly jobTime.
type ackFirst struct {
	wire    policies.Wire
	wall    clockwork.Clock
	guarded bool
	pending bool // the oracle reports the jobs not yet done

	mu   sync.Mutex
	jobs []job
	seen map[string]bool
	free time.Time // when the worker is done with the jobs queued so far
}

type job struct {
	id   string
	done time.Time
}

func (h *ackFirst) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodGet {
		h.serveEffects(w)
		return
	}
	body, _ := io.ReadAll(r.Body)
	id, err := h.wire.DedupID(r.Header, body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.guarded && h.seen[id] {
		return // the guard: an id queued once is not queued again
	}
	h.seen[id] = true
	start := h.wall.Now()
	if h.free.After(start) {
		start = h.free
	}
	h.free = start.Add(jobTime)
	h.jobs = append(h.jobs, job{id: id, done: h.free})
	// 200 at once: the work is done later.
}

func (h *ackFirst) serveEffects(w http.ResponseWriter) {
	h.mu.Lock()
	now := h.wall.Now()
	effects, pending := map[string]int{}, 0
	for _, j := range h.jobs {
		if j.done.After(now) {
			pending++
			continue
		}
		effects[j.id]++
	}
	h.mu.Unlock()
	if !h.pending {
		json.NewEncoder(w).Encode(effects)
		return
	}
	json.NewEncoder(w).Encode(map[string]any{"effects": effects, "pending": pending})
}

// The false IDEMPOTENT, reproduced: Stripe, flaky-network, 12 events,
// against an ack-first handler whose one worker spends 3s a job. Read on
// a fixed 2s of quiet, the naive handler (crediting every job) passed as
// IDEMPOTENT with the gate green, its duplicates credited later. Now it
// is never IDEMPOTENT and the duplicate-effects gate fails; reporting its
// pending work makes it NOT IDEMPOTENT exactly; the guarded one reporting
// pending is IDEMPOTENT with the gate passing and no caveat, and without
// pending it is IDEMPOTENT with the settled-on-quiet caveat.
func TestAckFirstSlowWorkerIsNeverFalselyIdempotent(t *testing.T) {
	for _, tc := range []struct {
		name             string
		guarded, pending bool
		want             report.Verdict
		wantGate         report.GateStatus
		wantCaveat       report.Caveat
	}{
		{"naive", false, false, report.NotIdempotent, report.GateFail, report.CaveatNone},
		{"naive, reporting pending", false, true, report.NotIdempotent, report.GateFail, report.CaveatNone},
		{"guarded, reporting pending", true, true, report.Idempotent, report.GatePass, report.CaveatNone},
		{"guarded", true, false, report.Idempotent, report.GatePass, report.CaveatSettledOnQuiet},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pol := policytest.Lookup(t, "stripe")
			wall := clockwork.NewFakeClock()
			h := &ackFirst{wire: pol.Wire(), wall: wall, guarded: tc.guarded, pending: tc.pending, seen: map[string]bool{}}
			srv := httptest.NewServer(h)
			defer srv.Close()
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			go func() {
				// The engine waits on the wall clock only while settling:
				// each wait is let through at once.
				for wall.BlockUntilContext(ctx, 1) == nil {
					wall.Advance(250 * time.Millisecond)
				}
			}()
			var recs []simulator.Record
			_, err := simulator.Run(ctx, simulator.Config{
				Policy: pol, Scenario: scenariotest.Lookup(t, "flaky-network"), URL: srv.URL + "/webhooks/stripe",
				Oracle: simulator.OracleURL(srv.URL+"/effects", nil), Events: 12, WallClock: wall,
				// Every first delivery is queued before any retry (minutes
				// later in virtual time): the duplicates' credits come after
				// every event is reported, each 3s after the last.
				// One attempt in flight at a time, so they reach the handler
				// in virtual-time order.
				Over: time.Second, Concurrency: 1,
				SettleLimit: 5 * time.Minute, Sink: simulator.Collect(&recs),
			})
			if err != nil {
				t.Fatal(err)
			}
			runs, err := report.Summarize(recs)
			if err != nil {
				t.Fatal(err)
			}
			r := runs[0]
			if r.DuplicateArrivals == 0 {
				t.Fatal("no duplicate reached the handler: the scenario tested nothing")
			}
			j := r.Judge()
			if j.Verdict != tc.want || j.Caveat != tc.wantCaveat {
				t.Errorf("verdict %s (%s, caveat %q), want %s (caveat %q): %s", j.Verdict, j.Reason, j.Caveat, tc.want, tc.wantCaveat, r.VerdictLine())
			}
			gates := report.CheckGates(runs, []report.Gate{report.GateDuplicateEffects}, report.GateOptions{})
			if gates[0].Status != tc.wantGate {
				t.Errorf("duplicate-effects gate %s, want %s: %s", gates[0].Status, tc.wantGate, gates[0].Message)
			}
			if tc.wantCaveat == report.CaveatSettledOnQuiet && j.Quiet < 2*jobTime {
				t.Errorf("settled on %s of quiet, want at least twice the worker's %s between credits", j.Quiet, jobTime)
			}
		})
	}
}
