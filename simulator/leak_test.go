package simulator

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"
)

// A long run against a real handler (100,000 attempts) reuses its
// connections and leaves nothing behind: once it returns, every connection
// it opened is closed, and no goroutine and no file descriptor is left over.
func TestLongRunLeaksNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("100,000 attempts over loopback")
	}
	const concurrency = 32
	var mu sync.Mutex
	opened, open := 0, 0
	allClosed := make(chan struct{}, 1)
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.WriteHeader(http.StatusInternalServerError) // fail fast: every event rides its schedule
	}))
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		mu.Lock()
		defer mu.Unlock()
		switch s {
		case http.StateNew:
			opened++
			open++
		case http.StateClosed, http.StateHijacked:
			if open--; open == 0 {
				select {
				case allClosed <- struct{}{}:
				default:
				}
			}
		}
	}
	srv.Start()
	defer srv.Close()
	fds := openFiles(t)
	ignore := goleak.IgnoreCurrent()

	attempts := 100_000
	if raceEnabled {
		attempts = 20_000 // the same paths, in a time CI can afford
	}
	p := mustPolicy(t, "stripe")
	events := attempts / p.MaxAttempts()
	res, err := Run(context.Background(), Config{Policy: p, URL: srv.URL, Events: events, Over: time.Hour, Concurrency: concurrency})
	if err != nil {
		t.Fatal(err)
	}
	if want := events * p.MaxAttempts(); res.Attempts != want {
		t.Fatalf("%d attempts, want %d", res.Attempts, want)
	}
	mu.Lock()
	n := opened
	mu.Unlock()
	// Without reuse every attempt would open its own connection. With it,
	// about one per attempt in flight; a loaded machine adds a few more,
	// when a request is sent just before another one's connection is back
	// in the pool (seen: 66 at concurrency 32), so the bound leaves room.
	if n > 4*concurrency {
		t.Errorf("%d connections opened for %d attempts at concurrency %d: connections are not reused", n, res.Attempts, concurrency)
	}
	// The handler sees each connection closed once the run has closed it.
	select {
	case <-allClosed:
	case <-time.After(10 * time.Second):
		mu.Lock()
		still, all := open, opened
		mu.Unlock()
		t.Fatalf("%d of %d connections still open after the run returned", still, all)
	}
	if after := openFiles(t); after != fds {
		t.Errorf("%d files open before the run, %d after", fds, after)
	}
	goleak.VerifyNone(t, ignore)
}

// openFiles counts this process's open file descriptors.
func openFiles(t *testing.T) int {
	t.Helper()
	fds, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skipf("cannot count open files here: %v", err)
	}
	return len(fds)
}
