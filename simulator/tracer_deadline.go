package simulator

import (
	"slices"
	"time"
)

// A flight's tracer bounds its exchange by the provider's timeout on the
// real clock, as http.Client's Timeout did (see the tracer's deadline).

// afterFunc is a function to call when a tracer's deadline passes.
type afterFunc struct {
	id uint64
	f  func()
}

// AfterFunc calls f in a goroutine of its own once the tracer's deadline
// has passed, unless stop is called first, as context.AfterFunc does: a
// context derived from the tracer registers itself this way rather than
// with a goroutine of its own.
func (t *tracer) AfterFunc(f func()) (stop func() bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.expired.Load() {
		go f()
		return func() bool { return false }
	}
	t.afterID++
	id := t.afterID
	t.after = append(t.after, afterFunc{id: id, f: f})
	return func() bool {
		t.mu.Lock()
		defer t.mu.Unlock()
		for i := range t.after {
			if t.after[i].id == id {
				t.after = slices.Delete(t.after, i, i+1)
				return true
			}
		}
		return false
	}
}

// waiting says a function is still registered with AfterFunc.
func (t *tracer) waiting() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.after) > 0
}

// bound makes the tracer, a flight's, end d from now (no bound when d is
// 0), until unbound.
func (t *tracer) bound(d time.Duration) {
	if d <= 0 || t.done == nil {
		return
	}
	t.deadline.Store(time.Now().Add(d).UnixNano())
	if t.timer == nil {
		t.timer = time.AfterFunc(d, t.expire)
	} else {
		t.timer.Reset(d)
	}
	t.armed = true
}

// unbound lifts the bound once the exchange is over; if the deadline may
// have passed by then, the tracer is stale.
func (t *tracer) unbound() {
	if !t.armed {
		return
	}
	t.armed = false
	if !t.timer.Stop() {
		t.stale = true
		return
	}
	t.deadline.Store(0)
}

// expire ends the tracer as its deadline passes.
func (t *tracer) expire() {
	t.mu.Lock()
	t.expired.Store(true)
	close(t.done)
	after := t.after
	t.after = nil
	t.mu.Unlock()
	for _, a := range after {
		go a.f()
	}
}
