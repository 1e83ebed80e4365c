package simulator

import (
	"context"
	"encoding/json"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/retrysim/retrysim/policies"
)

// settleTimeout is the provider timeout of the settle tests: the real time
// after which the first attempt is cut off. Everything the engine waits for
// after that runs on a fake wall clock the tests drive.
const settleTimeout = 300 * time.Millisecond

// lateLedger is a naive in-process handler: it credits every delivery. Its
// first call is cut off by the provider's timeout and goes on, as a real
// server does after its client hung up: it credits once late is closed.
type lateLedger struct {
	wire policies.Wire
	late chan struct{}

	mu      sync.Mutex
	calls   int
	credits map[string]int
}

func newLateLedger(w policies.Wire) *lateLedger {
	return &lateLedger{wire: w, late: make(chan struct{}), credits: map[string]int{}}
}

func (l *lateLedger) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	id, err := l.wire.DedupID(r.Header, body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	l.mu.Lock()
	l.calls++
	first := l.calls == 1
	l.mu.Unlock()
	if first {
		<-r.Context().Done() // the provider gave up on this call…
		<-l.late             // …and it goes on
	}
	l.mu.Lock()
	l.credits[id]++
	l.mu.Unlock()
}

func (l *lateLedger) effects(context.Context) (map[string]int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return maps.Clone(l.credits), nil
}

// endRecord is a run's end record.
func endRecord(t *testing.T, recs []Record) Record {
	t.Helper()
	if len(recs) == 0 || recs[len(recs)-1].Kind != KindEnd {
		t.Fatalf("the stream does not close with an end record: %+v", recs)
	}
	return recs[len(recs)-1]
}

// An in-process handler call the provider cut off goes on running; its
// side effect lands while the engine waits for it, before the effects are
// read: the verdict counts it, and no goroutine is left when Run returns.
func TestInProcessLateEffectIsCounted(t *testing.T) {
	defer noLeaks(t, baseline(t))
	p := shortPolicy(t, settleTimeout)
	l := newLateLedger(p.Wire())
	wall := clockwork.NewFakeClock()
	ctx, cancel := context.WithCancel(t.Context())
	released := make(chan struct{})
	go func() {
		defer close(released)
		// Released once the engine waits on the wall clock (for the
		// handler, after the run), or, if it never does, once Run is over.
		_ = wall.BlockUntilContext(ctx, 1)
		close(l.late)
	}()
	var recs []Record
	res, err := Run(context.Background(), Config{Policy: p, Handler: l, Effects: l.effects, Events: 1, WallClock: wall, Sink: Collect(&recs)})
	cancel()
	<-released
	if err != nil {
		t.Fatal(err)
	}
	id := recs[len(recs)-2].EventID
	if res.Effects[id] != 2 {
		t.Errorf("effects %v: want %s processed twice (the cut-off call's late credit and the retry's)", res.Effects, id)
	}
	if end := endRecord(t, recs); res.HandlersRunning != 0 || end.HandlersRunning != 0 {
		t.Errorf("%d handler calls still running (end record: %d), want none", res.HandlersRunning, end.HandlersRunning)
	}
}

// A handler call that never returns does not hold the run: the engine waits
// one provider timeout for it (or until ctx is cancelled), then reads the
// effects and says how many calls were still running.
func TestInProcessHungHandlerIsReported(t *testing.T) {
	for _, tc := range []struct {
		name string
		// end ends the engine's wait for the handler.
		end func(wall *clockwork.FakeClock, cancel context.CancelFunc)
	}{
		{"one more timeout passes", func(wall *clockwork.FakeClock, _ context.CancelFunc) { wall.Advance(settleTimeout) }},
		{"the run is interrupted", func(_ *clockwork.FakeClock, cancel context.CancelFunc) { cancel() }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := shortPolicy(t, settleTimeout)
			l := newLateLedger(p.Wire())
			t.Cleanup(func() { close(l.late) }) // the hung call ends with the test
			wall := clockwork.NewFakeClock()
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			go func() {
				if wall.BlockUntilContext(ctx, 1) == nil {
					tc.end(wall, cancel)
				}
			}()
			var recs []Record
			res, err := Run(ctx, Config{Policy: p, Handler: l, Effects: l.effects, Events: 1, WallClock: wall, Sink: Collect(&recs)})
			if err != nil {
				t.Fatal(err)
			}
			end := endRecord(t, recs)
			if res.HandlersRunning != 1 || end.HandlersRunning != 1 {
				t.Errorf("%d handler calls still running (end record: %d), want the hung one", res.HandlersRunning, end.HandlersRunning)
			}
			if !end.EffectsKnown || len(res.Effects) != 1 {
				t.Errorf("effects %v (known %v), want the retry's credit read all the same", res.Effects, end.EffectsKnown)
			}
			for id, n := range res.Effects {
				if n != 1 {
					t.Errorf("%s processed %d times, want once: the hung call never credited", id, n)
				}
			}
		})
	}
}

// Against a URL the oracle is read until every event the handler accepted
// is reported and its answer has not changed for the quiet period (and,
// after a cut-off, one more timeout has passed), for at most SettleLimit; the
// oracle's count before the run is taken off.
func TestURLOracleIsReadUntilItSettles(t *testing.T) {
	const quiet, limit = 80 * time.Millisecond, 400 * time.Millisecond
	every := settleEvery(quiet)
	for _, tc := range []struct {
		name string
		hang bool // the first delivery hangs until the provider gives up
		// answer is the oracle's count for the event at a time since the
		// first read after the run; before the run it counts 5.
		answer    func(since time.Duration) int
		interrupt bool // ctx is cancelled at the first wait
		wantWait  time.Duration
		wantCount int
		unsettled bool
	}{
		{"done when it answered: settled after the quiet period", false, func(time.Duration) int { return 6 }, false, quiet, 1, false},
		{"ack-first: the wait goes on until the event is reported", false,
			func(d time.Duration) int { return 5 + b2i(d >= 4*every) }, false, 4*every + quiet, 1, false},
		// The change came 5 reads after the run's end: the quiet window
		// grows to twice that gap, past the 80ms floor.
		{"ack-first: a late duplicate is counted", false,
			func(d time.Duration) int { return 6 + b2i(d >= 5*every) }, false, 5*every + 2*5*every, 2, false},
		{"still moving at the limit: unsettled", false, func(d time.Duration) int { return 6 + int(d/every) }, false, limit, 1 + int(limit/every), true},
		{"cut off: the handler has one more timeout", true, func(time.Duration) int { return 6 }, false, settleTimeout, 1, false},
		{"interrupted at the first wait: unsettled", false, func(time.Duration) int { return 6 }, true, 0, 1, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := shortPolicy(t, settleTimeout)
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			var mu sync.Mutex
			calls, reads := 0, 0
			// The run's one id, known before the run (it repeats a run id).
			w := workload{seed: DefaultSeed, ids: runKey("settle"), n: 1, start: DefaultStart(), over: DefaultOver, wire: p.Wire(), typ: p.Wire().DefaultEventType()}
			id := w.event(0).ID
			var sent string
			wall := clockwork.NewFakeClock()
			var first time.Time // the first read after the run
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.Method == http.MethodGet {
					mu.Lock()
					reads++
					n := 5
					if reads == 2 {
						first = wall.Now()
					}
					if reads > 1 {
						n = tc.answer(wall.Since(first))
					}
					m := map[string]int{id: n, "from-another-run": 3}
					mu.Unlock()
					json.NewEncoder(w).Encode(m)
					return
				}
				body, _ := io.ReadAll(r.Body) // so the server notices the provider hanging up
				mu.Lock()
				calls++
				hang := calls == 1 && tc.hang
				sent, _ = p.Wire().DedupID(r.Header, body)
				mu.Unlock()
				if hang {
					<-r.Context().Done()
				}
			}))
			defer srv.Close()
			go func() {
				for wall.BlockUntilContext(ctx, 1) == nil {
					if tc.interrupt {
						cancel()
						return
					}
					wall.Advance(every)
				}
			}()
			var recs []Record
			res, err := Run(ctx, Config{
				Policy: p, URL: srv.URL + "/webhooks", Effects: EffectsURL(srv.URL+"/effects", nil),
				Events: 1, RunID: "settle", WallClock: wall, Sink: Collect(&recs), SettleLimit: limit, SettleQuiet: quiet,
			})
			if err != nil {
				t.Fatal(err)
			}
			mu.Lock()
			defer mu.Unlock()
			if sent != id {
				t.Fatalf("the run sent %s, want %s: the same run id gives the same ids", sent, id)
			}
			if res.SettleWait != tc.wantWait {
				t.Errorf("waited %s for the effects, want %s", res.SettleWait, tc.wantWait)
			}
			if len(res.Effects) != 1 || res.Effects[id] != tc.wantCount {
				t.Errorf("effects %v, want only %s, at %d (the last read less the count before the run)", res.Effects, id, tc.wantCount)
			}
			end := endRecord(t, recs)
			if res.EffectsUnsettled != tc.unsettled || end.EffectsUnsettled != tc.unsettled {
				t.Errorf("effects unsettled %v (end record: %v), want %v", res.EffectsUnsettled, end.EffectsUnsettled, tc.unsettled)
			}
			if end.SettleWait != tc.wantWait || end.SettleLimit != limit {
				t.Errorf("end record says %s waited of %s, want %s of %s", end.SettleWait, end.SettleLimit, tc.wantWait, limit)
			}
		})
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
