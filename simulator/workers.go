package simulator

import (
	"context"
	"net/http/httptrace"
	"sync"
	"sync/atomic"

	"github.com/retrysim/retrysim/scenarios"
)

// flight is one attempt sent and not yet committed: out with the workers,
// then answered and waiting in the reorder buffer for its turn.
type flight struct {
	d    due
	st   eventRef
	o    outcome
	next next   // what its answer means, decided when it came
	done bool   // answered (or given up on, unsent, after an interruption)
	lost bool   // never sent: its tenant was disabled (sendLost)
	gen  uint32 // which use of this flight a signal is about
	// reached is the last use (gen) whose request was signalled to have
	// reached the handler, on signals; see wrote.
	reached atomic.Uint32
	signals chan<- signal
	// told, when set, says whether the scheduler is to be told of a
	// request that reached the handler (scheduler.tellReached); nil: it
	// always is.
	told *atomic.Bool
	// watched is the run's context carrying the flight as the watcher of
	// its attempts' writes (withWrote), made with its first attempt;
	// values is the same without the run's cancellation (its tracers'
	// parent: context.Cause of a request must not find the run's).
	watched, values context.Context
	// traced says watched carries no httptrace hooks of a caller's, so
	// that the flight's own tracers may serve as its exchanges' contexts
	// (see tracer); spare is one ready for an exchange.
	traced bool
	spare  atomic.Pointer[tracer]
}

// tracer returns a tracer for an exchange of the flight's attempt, made
// with watched, or nil when its exchanges need tracers of their own. The
// tracer is its requests' context: watched without its cancellation
// (values), with the hooks and, once bound, the provider's timeout; give
// it back with release. An attempt's exchanges may run
// at once (a duplicated request, a fan-out): each takes its own.
//
// Made for every exchange, a tracer, its three hooks and the contexts
// carrying them and the flight were six allocations.
func (f *flight) tracer(wall wallClock) *tracer {
	if !f.traced {
		return nil
	}
	t := f.spare.Swap(nil)
	if t == nil {
		t = makeTracer()
		t.owner, t.parent, t.wall, t.notify = f, f.values, wall, f
		t.traced = httptrace.WithClientTrace(context.Background(), &t.trace)
		t.done = make(chan struct{})
	}
	t.token = f.watching()
	return t
}

// watching returns the use of f being performed: f watches the writes
// of its attempt's exchanges (writeWatcher).
func (f *flight) watching() uint32 { return f.gen }

// wrote signals, once per use, that a request of use gen reached the
// handler. A write that ends late, about an earlier use, is not signalled
// once a later use has been; one signalled is ignored by the scheduler
// (onSignal). A closure and a flag for each use cost two allocations an
// attempt. While the scheduler holds no attempt back for another's
// request (see scheduler.tellReached), the use is noted in reached and
// not signalled.
func (f *flight) wrote(gen uint32) {
	for {
		last := f.reached.Load()
		if int32(gen-last) <= 0 { // this use, or a later one, signalled already
			return
		}
		if f.reached.CompareAndSwap(last, gen) {
			if f.told == nil || f.told.Load() {
				f.signals <- signal{f: f, gen: gen, reached: true}
			}
			return
		}
	}
}

// signal is what a worker tells the scheduler about a flight: one of its
// requests reached the handler, or the attempt is over.
type signal struct {
	f       *flight
	gen     uint32
	reached bool
}

// scheduler is the concurrent scheduler's state (see schedule.go): the
// attempts held back, those sent and not yet committed, and the workers that
// perform them. The workers live as long as the run; each has its own
// Decider.
type scheduler struct {
	waiting  []due      // taken from the queue, held back by a coupling, in order
	sent     flightHeap // sent, not yet committed, in order
	inFlight int        // sent, not yet answered
	free     []*flight

	jobs    chan *flight
	signals chan signal
	alive   sync.WaitGroup
	ctx     context.Context // the workers'
	// tellReached says the workers signal each request that reached the
	// handler. Only objectBlocked reads what those signals say, before an
	// attempt's answer, and it is set (and the flights' reached read)
	// before an attempt is held back for another event's request
	// (heldBack); with nothing held back, a wake of the scheduler for
	// every attempt is saved.
	tellReached atomic.Bool
}

// start starts n workers performing e's attempts.
func (s *scheduler) start(ctx context.Context, e *engine, n int) {
	s.ctx = ctx
	s.jobs = make(chan *flight, n)
	// Two signals at most per attempt in flight (reached, over), plus a
	// few late "reached" ones about attempts already over: the workers
	// rarely wait for the scheduler to read them.
	s.signals = make(chan signal, 2*n+16)
	for range n {
		dec := e.cfg.Scenario.Decider()
		s.alive.Go(func() {
			for f := range s.jobs {
				e.perform(ctx, f, dec, s.signals)
			}
		})
	}
}

// take returns a flight to use: one released, or a new one.
func (s *scheduler) take() *flight {
	if n := len(s.free); n > 0 {
		f := s.free[n-1]
		s.free = s.free[:n-1]
		return f
	}
	return new(flight)
}

// send hands attempt d to a worker.
func (s *scheduler) send(d due, st eventRef) {
	f := s.take()
	if f.signals == nil {
		// Set before the flight's first attempt, never changed after: a
		// write that ends late reads it (wrote). A flight made for an
		// attempt never sent (sendLost) has none yet.
		f.signals = s.signals
		f.told = &s.tellReached
		f.watch(s.ctx)
	}
	f.d, f.st, f.done = d, st, false
	f.gen++
	s.sent.push(f)
	s.inFlight++
	s.jobs <- f
}

// watch makes the flight's contexts from the run's, ctx.
func (f *flight) watch(ctx context.Context) {
	f.watched = withWrote(ctx, f)
	f.values = withWrote(context.WithoutCancel(ctx), f)
	f.traced = httptrace.ContextClientTrace(ctx) == nil
}

// release takes back a flight committed.
func (s *scheduler) release(f *flight) {
	f.gen++ // late signals about its last use are ignored
	f.st, f.o, f.next, f.lost = eventRef{}, outcome{}, next{}, false
	s.free = append(s.free, f)
}

// stop stops the workers, if started, and waits for them to exit.
func (s *scheduler) stop() {
	if s.jobs != nil {
		close(s.jobs)
		s.alive.Wait()
		s.jobs = nil
	}
}

// perform carries out one attempt on a worker and reports on it: when its
// request reaches the handler (the order of events about one object rests
// on it) and when it is over.
func (e *engine) perform(ctx context.Context, f *flight, dec *scenarios.Decider, signals chan<- signal) {
	gen := f.gen
	if ctx.Err() != nil {
		f.o = outcome{unsent: true}
	} else {
		e.attempt(ctx, &f.d, f.st, dec, &f.o, f.watched)
	}
	signals <- signal{f: f, gen: gen}
}

// flightHeap is a min-heap of flights in (time, event, attempt) order.
type flightHeap struct{ items []*flight }

func (h *flightHeap) Len() int      { return len(h.items) }
func (h *flightHeap) peek() *flight { return h.items[0] }

func (h *flightHeap) push(f *flight) {
	h.items = append(h.items, f)
	s := h.items
	for i := len(s) - 1; i > 0; {
		p := (i - 1) / 2
		if !s[i].d.before(&s[p].d) {
			break
		}
		s[i], s[p] = s[p], s[i]
		i = p
	}
}

func (h *flightHeap) pop() *flight {
	s := h.items
	top := s[0]
	last := len(s) - 1
	s[0] = s[last]
	s[last] = nil
	s = s[:last]
	h.items = s
	for i := 0; ; {
		l := 2*i + 1
		if l >= last {
			break
		}
		m := l
		if r := l + 1; r < last && s[r].d.before(&s[l].d) {
			m = r
		}
		if !s[m].d.before(&s[i].d) {
			break
		}
		s[i], s[m] = s[m], s[i]
		i = m
	}
	return top
}
