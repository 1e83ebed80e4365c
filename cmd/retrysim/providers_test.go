package main

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/retrysim/retrysim/simulator"
)

// TestRelayKeepsRunOrder: runs going at once hand over their records in
// the order of the runs, whichever finishes first; a later run's records
// wait for the earlier runs, then follow them.
func TestRelayKeepsRunOrder(t *testing.T) {
	var got []string
	rl := newRelay(3, func(r *simulator.Record) error { got = append(got, r.Provider+"/"+r.Kind); return nil })
	add := func(i int, provider, kind string) {
		t.Helper()
		if err := rl.add(i, &simulator.Record{Provider: provider, Kind: kind}); err != nil {
			t.Fatal(err)
		}
	}
	add(2, "c", "run")
	add(1, "b", "run")
	add(0, "a", "run")
	add(2, "c", "end")
	if err := rl.finish(2); err != nil {
		t.Fatal(err)
	}
	add(1, "b", "end")
	if err := rl.finish(1); err != nil {
		t.Fatal(err)
	}
	if want := []string{"a/run"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("before the first run ended: %v, want %v", got, want)
	}
	add(0, "a", "end")
	if err := rl.finish(0); err != nil {
		t.Fatal(err)
	}
	want := []string{"a/run", "a/end", "b/run", "b/end", "c/run", "c/end"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("records in order %v, want %v", got, want)
	}
}

// TestRelayStopsEveryRunOnAWriteError: once the sink fails, every run's
// next record gets the error, so all of them stop.
func TestRelayStopsEveryRunOnAWriteError(t *testing.T) {
	broken := errors.New("disk full")
	rl := newRelay(2, func(*simulator.Record) error { return broken })
	if err := rl.add(0, &simulator.Record{}); !errors.Is(err, broken) {
		t.Fatalf("run 0: %v, want the sink's error", err)
	}
	if err := rl.add(1, &simulator.Record{}); !errors.Is(err, broken) {
		t.Fatalf("run 1: %v, want the sink's error", err)
	}
}

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
