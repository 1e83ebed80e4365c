package simulator

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"
)

// flightTracer returns a tracer of a flight of a run whose context is run.
func flightTracer(run context.Context) (*flight, *tracer) {
	f := &flight{}
	f.watch(run)
	return f, f.tracer(clockwork.NewRealClock())
}

// A flight's tracer bounds its exchange as http.Client's Timeout did: once
// the bound passes, its context and every context made from it (net/http
// makes one for each request) end with the deadline's error, even in a run
// that was interrupted meanwhile, and the tracer is not used again.
func TestTracerBoundEndsItsExchange(t *testing.T) {
	run, interrupt := context.WithCancelCause(context.Background())
	f, tr := flightTracer(run)
	req, cancel := context.WithCancelCause(tr)
	defer cancel(nil)
	interrupt(errors.New("interrupted"))
	tr.bound(time.Millisecond)
	<-req.Done()
	if err := tr.Err(); err != context.DeadlineExceeded {
		t.Errorf("the tracer's error is %v, want the deadline's", err)
	}
	if cause := context.Cause(req); cause != context.DeadlineExceeded {
		t.Errorf("a request's context ended for %v, want the deadline", cause)
	}
	tr.unbound()
	tr.release(nil)
	if f.spare.Load() != nil {
		t.Error("a tracer whose deadline passed was handed back for another exchange")
	}
}

// A bound lifted in time leaves the tracer as it was, ready for the
// flight's next exchange; the contexts made from it cost no goroutine
// each, and leave nothing registered once they end.
func TestTracerBoundLiftedInTime(t *testing.T) {
	f, tr := flightTracer(context.Background())
	tr.bound(time.Hour)
	if _, ok := tr.Deadline(); !ok {
		t.Fatal("a bound tracer has no deadline")
	}
	before := runtime.NumGoroutine()
	var reqs []context.CancelCauseFunc
	for range 50 {
		_, cancel := context.WithCancelCause(tr)
		reqs = append(reqs, cancel)
	}
	if n := runtime.NumGoroutine() - before; n > 10 {
		t.Errorf("50 contexts made from the tracer started %d goroutines", n)
	}
	for _, cancel := range reqs {
		cancel(nil)
	}
	if tr.waiting() {
		t.Error("ended contexts are still registered with the tracer")
	}
	tr.unbound()
	if _, ok := tr.Deadline(); ok || tr.Err() != nil {
		t.Errorf("after the bound was lifted: deadline %v, error %v", ok, tr.Err())
	}
	select {
	case <-tr.Done():
		t.Fatal("the tracer ended though its bound was lifted in time")
	default:
	}
	tr.release(nil)
	if f.spare.Load() != tr {
		t.Error("a tracer lifted in time was not handed back")
	}
}

// Credentials in the target URL are sent as Basic authorization, as Go's
// client sends them: the engine's requests go straight to its transport.
func TestURLCredentialsAreSentAsBasicAuth(t *testing.T) {
	var mu sync.Mutex
	var got []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		user, pass, ok := r.BasicAuth()
		mu.Lock()
		defer mu.Unlock()
		if !ok {
			user, pass = "(none)", ""
		}
		got = append(got, user+":"+pass)
	}))
	defer srv.Close()
	target := strings.Replace(srv.URL, "http://", "http://hook:s3cret@", 1)
	_, res := collect(t, Config{Policy: mustPolicy(t, "stripe"), URL: target, Events: 3, Secret: "whsec_test"})
	if res.Delivered != 3 {
		t.Fatalf("delivered %d of 3", res.Delivered)
	}
	mu.Lock()
	defer mu.Unlock()
	for _, g := range got {
		if g != "hook:s3cret" {
			t.Errorf("the handler was sent credentials %q, want hook:s3cret", g)
		}
	}
}
