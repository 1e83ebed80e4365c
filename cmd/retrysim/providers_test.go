package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestProvidersRunAtOnce: with two providers, each sending one event to a
// handler that answers nothing until two requests are inside it at once,
// both runs are in the handler together, and the report still lists them
// in the order given.
func TestProvidersRunAtOnce(t *testing.T) {
	var mu sync.Mutex
	inside, most := 0, 0
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		mu.Lock()
		inside++
		most = max(most, inside)
		if inside == 2 {
			close(release)
		}
		mu.Unlock()
		select {
		case <-release:
		case <-time.After(5 * time.Second): // only runs one after another wait this long
		case <-r.Context().Done():
		}
		mu.Lock()
		inside--
		mu.Unlock()
	}))
	defer srv.Close()
	code, out, errOut := runCLI(t, t.TempDir(), "run", "--provider", "stripe,github", "--scenario", "happy", "--events", "1",
		"--url", srv.URL+"/hook", "--format", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if most != 2 {
		t.Fatalf("the handler had at most %d request at once: the providers ran one after another", most)
	}
	s, g := strings.Index(out, `"policy": "stripe"`), strings.Index(out, `"policy": "github"`)
	if s < 0 || g < 0 || s > g {
		t.Fatalf("stripe's run at %d, github's at %d in the report: want both, stripe's first", s, g)
	}
}
