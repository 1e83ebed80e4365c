package simulator

import (
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"
)

// What a run leaves behind is counted in goroutines and in sockets. Both are
// released asynchronously once a run returns (a connection's goroutines
// unwind after it is closed, the server's after it sees the close), and a
// loaded machine can take a while to get there; so these helpers wait until
// the count is back, not for a set time, and fail only if it never comes
// back.

// leakGuard bounds how long noLeaks waits. A working run is back within
// milliseconds; the guard only ends a test that really leaks.
const leakGuard = 30 * time.Second

// leakBaseline is what a test holds a run's leftovers to: the goroutines
// and sockets there were before it.
type leakBaseline struct {
	goroutines goleak.Option
	sockets    int
}

// baseline takes the goroutines and sockets open now.
func baseline(t *testing.T) leakBaseline {
	t.Helper()
	return leakBaseline{goroutines: goleak.IgnoreCurrent(), sockets: openSockets()}
}

// noLeaks waits until no goroutine and no socket is left beyond b, and
// fails t, naming what is left, if that does not happen within leakGuard.
func noLeaks(t *testing.T, b leakBaseline) {
	t.Helper()
	deadline := time.Now().Add(leakGuard)
	for wait := time.Millisecond; ; wait = min(2*wait, 100*time.Millisecond) {
		err := goleak.Find(b.goroutines)
		sockets := openSockets()
		if err == nil && sockets <= b.sockets {
			return
		}
		if time.Now().After(deadline) {
			if err != nil {
				t.Errorf("goroutines left behind: %v", err)
			}
			if sockets > b.sockets {
				t.Errorf("sockets left open: %d before, %d after", b.sockets, sockets)
			}
			return
		}
		time.Sleep(wait)
	}
}

// openSockets counts this process's open sockets, or 0 where /proc is not
// there. Only sockets: the runtime opens other descriptors of its own as it
// goes (its network poller on first use, the cgroup files it reads the CPU
// limit from), and they are no leak of a run.
func openSockets() int {
	if runtime.GOOS != "linux" {
		return 0
	}
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		return 0
	}
	n := 0
	for _, e := range ents {
		if l, err := os.Readlink("/proc/self/fd/" + e.Name()); err == nil && strings.HasPrefix(l, "socket:") {
			n++
		}
	}
	return n
}
