package simulator

import (
	"context"
	"sync"
	"time"

	"github.com/jonboulle/clockwork"
)

// DefaultRemoteMaxRPS is the request rate the command line allows towards a
// target that is not on this machine unless --max-rps says otherwise: enough
// for a realistic run, too little to flood a staging server by mistake.
const DefaultRemoteMaxRPS = 10

// MaxMaxRPS bounds Config.MaxRPS: above it a cap means nothing.
const MaxMaxRPS = 1_000_000

// rateLimiter spaces requests at least 1/rps apart in real time, measured on
// the wall clock: the n-th request waits until start + (n-1)/rps. It holds no
// goroutine; a waiting request waits on a timer of the clock. A nil
// rateLimiter lets everything through.
type rateLimiter struct {
	clock    clockwork.Clock
	interval time.Duration
	mu       sync.Mutex
	next     time.Time // when the next request may go
}

// newRateLimiter returns a limiter of rps requests a second, or nil for no
// limit (rps <= 0).
func newRateLimiter(rps float64, clock clockwork.Clock) *rateLimiter {
	if rps <= 0 {
		return nil
	}
	iv := time.Duration(float64(time.Second) / rps)
	if iv <= 0 {
		return nil
	}
	return &rateLimiter{clock: clock, interval: iv}
}

// wait blocks until the caller may send, or until ctx is done. A request that
// gave up does not give its slot back: the rate only ever errs on the slow
// side.
func (l *rateLimiter) wait(ctx context.Context) error {
	if l == nil {
		return nil
	}
	l.mu.Lock()
	now := l.clock.Now()
	at := l.next
	if at.Before(now) {
		at = now
	}
	l.next = at.Add(l.interval)
	l.mu.Unlock()
	d := at.Sub(now)
	if d <= 0 {
		return nil
	}
	t := l.clock.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.Chan():
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
