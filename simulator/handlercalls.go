package simulator

import (
	"context"
	"sync"
	"time"
)

// handlerCalls counts the in-process handler calls still running, and lets
// the engine wait, bounded, for the count to fall to zero. Its zero value
// counts none.
type handlerCalls struct {
	mu sync.Mutex
	n  int
	// idle is closed whenever n is zero; a new one is made when the first
	// call of a busy spell starts.
	idle chan struct{}
}

func (c *handlerCalls) add() {
	c.mu.Lock()
	if c.n == 0 {
		c.idle = make(chan struct{})
	}
	c.n++
	c.mu.Unlock()
}

func (c *handlerCalls) done() {
	c.mu.Lock()
	if c.n--; c.n == 0 {
		close(c.idle)
	}
	c.mu.Unlock()
}

// running is how many calls are running now.
func (c *handlerCalls) running() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}

// wait waits until no call is running, until bound fires, or until ctx is
// done, and returns how many calls are still running then.
func (c *handlerCalls) wait(ctx context.Context, bound <-chan time.Time) int {
	c.mu.Lock()
	idle, n := c.idle, c.n
	c.mu.Unlock()
	if n == 0 {
		return 0
	}
	select {
	case <-idle:
	case <-bound:
	case <-ctx.Done():
	}
	return c.running()
}
