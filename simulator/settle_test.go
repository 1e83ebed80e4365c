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
	"go.uber.org/goleak"

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
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
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
	id := recs[len(recs)-2].Event
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

// Against a URL, when a request reached the handler and got no answer,
// the handler gets one more timeout, then the oracle is read until two
// reads agree (or another timeout has passed, or ctx is cancelled); when
// none did, it is read once and nothing waits.
func TestURLOracleIsReadUntilItSettles(t *testing.T) {
	every := settleEvery(settleTimeout)
	for _, tc := range []struct {
		name string
		hang bool // the first delivery hangs until the provider gives up
		// answer is the oracle's count for the event at its nth read (from 1).
		answer    func(n int) int
		interrupt bool // ctx is cancelled at the first wait instead of the wait passing
		wantReads int
		wantCount int
		unsettled bool
	}{
		{"no request cut off: one read", false, func(int) int { return 1 }, false, 1, 1, false},
		{"cut off, nothing late: read again to confirm", true, func(int) int { return 1 }, false, 2, 1, false},
		{"cut off, the late effect lands after the first read", true, func(n int) int { return min(n, 2) }, false, 3, 2, false},
		{"cut off, the oracle never settles: reading stops a timeout later", true, func(n int) int { return n }, false,
			1 + int(settleTimeout/every), 1 + int(settleTimeout/every), true},
		{"cut off, interrupted while the handler has its time: one read", true, func(n int) int { return n }, true, 1, 1, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := shortPolicy(t, settleTimeout)
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			var mu sync.Mutex
			calls, reads := 0, 0
			var id string
			var firstReadAt time.Duration // on the wall clock, since the run began
			wall := clockwork.NewFakeClock()
			start := wall.Now()
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.Method == http.MethodGet {
					mu.Lock()
					if reads++; reads == 1 {
						firstReadAt = wall.Since(start)
					}
					m := map[string]int{id: tc.answer(reads)}
					mu.Unlock()
					json.NewEncoder(w).Encode(m)
					return
				}
				body, _ := io.ReadAll(r.Body) // so the server notices the provider hanging up
				mu.Lock()
				calls++
				first := calls == 1
				id, _ = p.Wire().DedupID(r.Header, body)
				mu.Unlock()
				if first && tc.hang {
					<-r.Context().Done()
				}
			}))
			defer srv.Close()
			go func() {
				// Each wait on the wall clock passes at once, a tenth of the
				// timeout at a time, or the first one is interrupted.
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
				Events: 1, WallClock: wall, Sink: Collect(&recs),
			})
			if err != nil {
				t.Fatal(err)
			}
			mu.Lock()
			defer mu.Unlock()
			// The cut-off was recorded at the start, as the wall clock
			// stands still while the run goes on.
			if wantAt := map[bool]time.Duration{true: settleTimeout}[tc.hang && !tc.interrupt]; firstReadAt != wantAt {
				t.Errorf("the oracle was first read %s after the cut-off, want %s", firstReadAt, wantAt)
			}
			if reads != tc.wantReads {
				t.Errorf("the oracle was read %d times, want %d", reads, tc.wantReads)
			}
			if res.Effects[id] != tc.wantCount {
				t.Errorf("effects %v, want %s at %d (the last read)", res.Effects, id, tc.wantCount)
			}
			if end := endRecord(t, recs); res.EffectsUnsettled != tc.unsettled || end.EffectsUnsettled != tc.unsettled {
				t.Errorf("effects unsettled %v (end record: %v), want %v", res.EffectsUnsettled, end.EffectsUnsettled, tc.unsettled)
			}
		})
	}
}
