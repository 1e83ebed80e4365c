package main

import (
	"bytes"
	"encoding/json"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/retrysim/retrysim/policies"
	"github.com/retrysim/retrysim/simulator/demo"
)

// ackFirst is a handler written apart from the product, the way the
// providers' docs advise: it answers 200 at once and does the work later,
// from a worker, workDelay after each delivery (real time). Its oracle
// serves the credits as they stand, whatever is still queued.
type ackFirst struct {
	url, effects string
	// guarded makes the worker credit an event once; otherwise it credits
	// every delivery. reportOnly limits the oracle to the first n events
	// it credited (a partial oracle); 0 reports all.
	guarded    bool
	reportOnly int
	// lateRetries credits an event's first delivery at once and only its
	// retries late: every event is reported at once, and only the quiet
	// period catches the duplicates.
	lateRetries bool

	mu      sync.Mutex
	seen    map[string]bool
	credits map[string]int
	order   []string
	pending sync.WaitGroup
}

const workDelay = 300 * time.Millisecond

func newAckFirst(t *testing.T, guarded bool, reportOnly int, lateRetries bool) *ackFirst {
	t.Helper()
	h := &ackFirst{guarded: guarded, reportOnly: reportOnly, lateRetries: lateRetries, credits: map[string]int{}, seen: map[string]bool{}}
	mux := http.NewServeMux()
	mux.HandleFunc("POST "+demo.WebhookPath+"{provider}", func(w http.ResponseWriter, r *http.Request) {
		wire, ok := policies.WireFor(r.PathValue("provider"))
		body, _ := io.ReadAll(r.Body)
		if !ok {
			http.Error(w, "unknown provider", http.StatusNotFound)
			return
		}
		id, err := wire.DedupID(r.Header, body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		h.mu.Lock()
		first := !h.seen[id]
		h.seen[id] = true
		h.mu.Unlock()
		if first && h.lateRetries {
			h.work(id)
		} else {
			h.pending.Add(1)
			time.AfterFunc(workDelay, func() { defer h.pending.Done(); h.work(id) })
		}
		w.WriteHeader(http.StatusOK) // before the work: ack first
	})
	mux.HandleFunc("GET "+demo.EffectsPath, func(w http.ResponseWriter, _ *http.Request) {
		h.mu.Lock()
		m := maps.Clone(h.credits)
		if h.reportOnly > 0 {
			m = map[string]int{}
			for _, id := range h.order[:min(h.reportOnly, len(h.order))] {
				m[id] = h.credits[id]
			}
		}
		h.mu.Unlock()
		json.NewEncoder(w).Encode(m)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(func() { h.pending.Wait(); srv.Close() })
	h.url, h.effects = srv.URL+demo.WebhookPath, srv.URL+demo.EffectsPath
	return h
}

func (h *ackFirst) work(id string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.guarded && h.credits[id] > 0 {
		return
	}
	if h.credits[id] == 0 {
		h.order = append(h.order, id)
	}
	h.credits[id]++
}

// credited is the handler's own count of side effects beyond the first.
func (h *ackFirst) extra() int {
	h.pending.Wait()
	h.mu.Lock()
	defer h.mu.Unlock()
	n := 0
	for _, c := range h.credits {
		n += c - 1
	}
	return n
}

// runJSON runs retrysim with args and --format json, and returns the exit
// code and the first run's verdict fields.
func runJSON(t *testing.T, args ...string) (int, runVerdict) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(append(args, "--format", "json"), nil, &out, &errOut)
	var doc struct {
		Runs []runVerdict `json:"runs"`
	}
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil || len(doc.Runs) == 0 {
		t.Fatalf("exit %d, no JSON report (%v):\n%s\n%s", code, err, out.String(), errOut.String())
	}
	return code, doc.Runs[0]
}

type runVerdict struct {
	RunID     string `json:"run_id"`
	Verdict   string `json:"verdict"`
	Reason    string `json:"verdict_reason"`
	Detail    string `json:"verdict_detail"`
	Missing   int    `json:"effects_missing"`
	Offenders []struct {
		ID    string `json:"id"`
		Times int    `json:"times"`
	} `json:"offenders"`
	Summary struct {
		DuplicateEffects *int `json:"duplicate_effects"`
	} `json:"summary"`
	Gates []struct {
		Gate, Status, Reason string
	} `json:"gates"`
}

// extra is the side effects beyond the first that the verdict counted.
func (v runVerdict) extra() int {
	n := 0
	for _, o := range v.Offenders {
		n += o.Times - 1
	}
	return n
}

// Handlers that answer first and work from a queue write their effects
// after the last answer: the verdict waits for them. Crediting every
// delivery is NOT IDEMPOTENT and fails the gate; a worker with a guard is
// IDEMPOTENT and passes it.
func TestAckFirstHandlers(t *testing.T) {
	t.Parallel()
	for _, provider := range []string{"stripe", "github"} {
		for _, tc := range []struct {
			name        string
			guarded     bool
			lateRetries bool
			verdict     string
			code        int
		}{
			{"credits every delivery", false, false, "not_idempotent", exitGate},
			{"credits at once, retries late", false, true, "not_idempotent", exitGate},
			{"guarded worker", true, false, "idempotent", 0},
		} {
			t.Run(provider+"/"+tc.name, func(t *testing.T) {
				t.Parallel()
				h := newAckFirst(t, tc.guarded, 0, tc.lateRetries)
				code, v := runJSON(t, "run", "--provider", provider, "--scenario", "flaky-network", "--events", "20",
					"--url", h.url+provider, "--effects-url", h.effects, "--settle", "3s", "--fail-on", "duplicate-effects")
				if code != tc.code || v.Verdict != tc.verdict {
					t.Fatalf("exit %d, verdict %s; want %d, %s: %s", code, v.Verdict, tc.code, tc.verdict, v.Detail)
				}
				// The verdict counted every late credit the handler made.
				if got, want := v.extra(), h.extra(); got != want {
					t.Errorf("the verdict counts %d extra side effects, the handler made %d: %s", got, want, v.Detail)
				}
				if !strings.Contains(v.Detail, "effects settled") {
					t.Errorf("the verdict does not say how long the effects took to settle: %s", v.Detail)
				}
			})
		}
	}
}

// An oracle that reports 1 of the 12 events the handler accepted vouches
// for nothing about the other 11: UNKNOWN, and the gate fails.
func TestPartialOracleIsUnknown(t *testing.T) {
	t.Parallel()
	h := newAckFirst(t, true, 1, false)
	code, v := runJSON(t, "run", "--provider", "stripe", "--scenario", "flaky-network", "--events", "12",
		"--url", h.url+"stripe", "--effects-url", h.effects, "--settle", "2s", "--fail-on", "duplicate-effects")
	if code != exitGate || v.Verdict != "unknown" || v.Reason != "partial_coverage" || v.Missing != 11 {
		t.Fatalf("exit %d, verdict %s (%s, %d missing); want %d, unknown, partial_coverage, 11: %s", code, v.Verdict, v.Reason, v.Missing, exitGate, v.Detail)
	}
	if !strings.Contains(v.Detail, "does not report 11 of the 12 events") {
		t.Errorf("the verdict does not say how many are missing: %s", v.Detail)
	}
	if len(v.Gates) != 1 || v.Gates[0].Status != "unknown" || v.Gates[0].Reason != "partial_coverage" {
		t.Errorf("gates %+v, want duplicate-effects unknown for partial_coverage", v.Gates)
	}
}

// serveDemo serves the demo handler in mode the way `retrysim demo` does,
// as a separate server that outlives each run.
func serveDemo(t *testing.T, mode demo.Mode) string {
	t.Helper()
	h, err := demo.New(mode)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(func() { srv.Close(); h.Close() })
	return srv.URL
}

// The same command run twice against one handler tests it afresh: each run
// has its own ids, and counts only what changed during it.
func TestSameCommandTwice(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		mode    demo.Mode
		verdict string
	}{
		{demo.Naive, "not_idempotent"},
		{demo.Idempotent, "idempotent"},
	} {
		t.Run(string(tc.mode), func(t *testing.T) {
			t.Parallel()
			url := serveDemo(t, tc.mode)
			args := []string{"run", "--provider", "stripe", "--scenario", "flaky-network", "--events", "20",
				"--url", url + "/webhooks/stripe", "--effects-url", url + demo.EffectsPath, "--settle", "1s"}
			_, first := runJSON(t, args...)
			_, second := runJSON(t, args...)
			if first.Verdict != tc.verdict || second.Verdict != tc.verdict {
				t.Fatalf("verdicts %s then %s, want %s both times: %s / %s", first.Verdict, second.Verdict, tc.verdict, first.Detail, second.Detail)
			}
			if first.RunID == second.RunID || first.RunID == "" {
				t.Errorf("run ids %q and %q: want two fresh ones", first.RunID, second.RunID)
			}
			d1, d2 := first.Summary.DuplicateEffects, second.Summary.DuplicateEffects
			if d1 == nil || d2 == nil || *d1 != *d2 {
				t.Errorf("duplicate effects %v then %v: the same seed against the same handler must count the same", ptr(d1), ptr(d2))
			}
			if first.extra() != second.extra() {
				t.Errorf("extra side effects %d then %d, want the same", first.extra(), second.extra())
			}
			// --run-id repeats a run's ids. Against the same handler the
			// baseline already holds them: the idempotent one absorbs every
			// delivery (all duplicates now), the naive one processes each
			// again, and every event it credited during this run is a
			// duplicate effect.
			_, again := runJSON(t, append(args, "--run-id", first.RunID)...)
			if again.RunID != first.RunID || again.Verdict != tc.verdict {
				t.Errorf("with --run-id %s: run id %s, verdict %s: %s", first.RunID, again.RunID, again.Verdict, again.Detail)
			}
			if tc.verdict == "not_idempotent" && len(again.Offenders) < len(first.Offenders) {
				t.Errorf("with --run-id: %d events processed more than once, want at least the first run's %d", len(again.Offenders), len(first.Offenders))
			}
		})
	}
}

func ptr(p *int) string {
	if p == nil {
		return "null"
	}
	return strconv.Itoa(*p)
}

// A run whose every delivery the handler refused (a wrong secret) tested
// nothing: UNKNOWN, with no duplicate effect counted, even against a
// handler that has processed other runs' events.
func TestRefusedRunCountsNothing(t *testing.T) {
	t.Parallel()
	url := serveDemo(t, demo.Naive)
	args := []string{"run", "--provider", "stripe", "--scenario", "flaky-network", "--events", "5",
		"--url", url + "/webhooks/stripe", "--effects-url", url + demo.EffectsPath, "--settle", "1s"}
	if _, v := runJSON(t, args...); v.Verdict != "not_idempotent" {
		t.Fatalf("the first run against the naive demo: %s, want not_idempotent: %s", v.Verdict, v.Detail)
	}
	code, v := runJSON(t, append(args, "--seed", "2", "--secret", "stripe=whsec_"+strings.Repeat("x", 32), "--fail-on", "duplicate-effects")...)
	if code != exitGate || v.Verdict != "unknown" || v.Reason != "none_accepted" || len(v.Offenders) != 0 || v.Summary.DuplicateEffects != nil {
		t.Fatalf("exit %d, verdict %s (%s), offenders %v; want %d, unknown, none_accepted, none: %s", code, v.Verdict, v.Reason, v.Offenders, exitGate, v.Detail)
	}
	if !regexp.MustCompile(`does it verify with the secret`).MatchString(v.Detail) {
		t.Errorf("the verdict does not ask about the secret: %s", v.Detail)
	}
}

// The queue demo modes answer first and credit from a worker: the guarded
// one is IDEMPOTENT, the unguarded one NOT IDEMPOTENT, under flaky-network.
func TestDemoQueueModes(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		mode, verdict string
	}{
		{"queue", "idempotent"},
		{"queue-unguarded", "not_idempotent"},
	} {
		t.Run(tc.mode, func(t *testing.T) {
			t.Parallel()
			_, v := runJSON(t, "run", "--provider", "stripe", "--scenario", "flaky-network", "--demo", tc.mode)
			if v.Verdict != tc.verdict {
				t.Fatalf("verdict %s, want %s: %s", v.Verdict, tc.verdict, v.Detail)
			}
		})
	}
}

// A --secret for a provider the command does not run is bad input naming
// the one that runs.
func TestSecretForAProviderNotRun(t *testing.T) {
	var out, errOut bytes.Buffer
	code := run([]string{"run", "--url", "http://127.0.0.1:1/hook", "--secret", "stripe=whsec_abc"}, nil, &out, &errOut)
	if code != exitBadInput {
		t.Fatalf("exit %d, want %d:\n%s", code, exitBadInput, errOut.String())
	}
	for _, want := range []string{"--secret stripe=…: stripe is not among the providers this run replays (shopify)", "add --provider stripe"} {
		if !strings.Contains(errOut.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut.String())
		}
	}
	if strings.Contains(errOut.String(), "whsec_abc") {
		t.Errorf("stderr repeats the secret:\n%s", errOut.String())
	}
}
