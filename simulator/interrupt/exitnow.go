package interrupt

import (
	"slices"
	"sync"
)

// exitNow holds what must be done before exiting at once on a later
// interrupt, which skips every deferred call.
var exitNow struct {
	mu    sync.Mutex
	hooks []*func()
}

// OnExitNow registers f to run before exiting at once on a later
// interrupt (newest first); the function returned unregisters it, once
// what it guards is done.
func OnExitNow(f func()) (remove func()) {
	exitNow.mu.Lock()
	defer exitNow.mu.Unlock()
	p := &f
	exitNow.hooks = append(exitNow.hooks, p)
	return func() {
		exitNow.mu.Lock()
		defer exitNow.mu.Unlock()
		exitNow.hooks = slices.DeleteFunc(exitNow.hooks, func(q *func()) bool { return q == p })
	}
}

// RunExitNow runs the exit-now hooks registered and not yet removed,
// newest first.
func RunExitNow() {
	exitNow.mu.Lock()
	hooks := slices.Clone(exitNow.hooks)
	exitNow.mu.Unlock()
	for _, f := range slices.Backward(hooks) {
		(*f)()
	}
}
