package simulator

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/retrysim/retrysim/policies/policytest"
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
	_, res := collect(t, Config{Policy: policytest.Lookup(t, "stripe"), URL: target, Events: 3, Secret: "whsec_test"})
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

// hangingServer answers as answer says and then holds the request until
// the client gives up on it.
func hangingServer(t *testing.T, answer func(http.ResponseWriter)) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body) // the server notices the client leave only after this
		answer(w)
		<-r.Context().Done()
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// errorsAt runs one event of pol against url at concurrency c and returns
// its attempts' outcomes and errors.
func errorsAt(t *testing.T, pol Config, c int) []string {
	t.Helper()
	pol.Concurrency = c
	recs, _ := collect(t, pol)
	var out []string
	for _, r := range attempts(recs) {
		out = append(out, string(r.Outcome)+": "+r.Error)
	}
	return out
}

// A timeout is said the same way whether the attempt went through a
// flight's own deadline (a concurrent run) or http.Client's (a serial
// one), and says whether the answer had begun: an informational 1xx
// answer is not the answer. (A second's timeout leaves a loaded machine
// room to send the headers that come at once.)
func TestTimeoutSaysTheSameAtAnyConcurrency(t *testing.T) {
	for _, tc := range []struct {
		name   string
		answer func(http.ResponseWriter)
		want   string
	}{
		{"no answer", func(http.ResponseWriter) {}, "no answer within the 1s timeout"},
		{"an early hint, then nothing", func(w http.ResponseWriter) {
			w.Header().Set("Link", "</style.css>; rel=preload")
			w.WriteHeader(http.StatusEarlyHints)
		}, "no answer within the 1s timeout"},
		{"a body that stops", func(w http.ResponseWriter) {
			w.WriteHeader(http.StatusOK)
			w.Write([]byte("{"))
			w.(http.Flusher).Flush()
		}, "the answer's body did not arrive within the 1s timeout"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			cfg := Config{Policy: shortPolicy(t, time.Second), URL: hangingServer(t, tc.answer), Events: 1, Secret: "whsec_test"}
			serial, concurrent := errorsAt(t, cfg, 1), errorsAt(t, cfg, 3)
			if strings.Join(serial, "\n") != strings.Join(concurrent, "\n") {
				t.Errorf("at concurrency 1:\n%s\nat concurrency 3:\n%s", strings.Join(serial, "\n"), strings.Join(concurrent, "\n"))
			}
			for _, e := range concurrent {
				if e != "timeout: "+tc.want {
					t.Errorf("attempt: %q, want %q", e, "timeout: "+tc.want)
				}
			}
		})
	}
}

// A redirect whose Location does not parse comes to the same at any
// concurrency: an invalid answer, saying why.
func TestUnparseableLocationAtAnyConcurrency(t *testing.T) {
	srv := httptest.NewServer(respond(http.StatusFound, "Location", "/next%zz"))
	defer srv.Close()
	cfg := Config{Policy: shortPolicy(t, time.Second), URL: srv.URL, Events: 1, Secret: "whsec_test"}
	serial, concurrent := errorsAt(t, cfg, 1), errorsAt(t, cfg, 2)
	if strings.Join(serial, "\n") != strings.Join(concurrent, "\n") {
		t.Errorf("at concurrency 1:\n%s\nat concurrency 2:\n%s", strings.Join(serial, "\n"), strings.Join(concurrent, "\n"))
	}
	for _, e := range concurrent {
		if !strings.HasPrefix(e, string(InvalidResponse)+": ") || !strings.Contains(e, `failed to parse Location header "/next%zz"`) {
			t.Errorf("attempt: %q, want an invalid answer naming the Location", e)
		}
	}
}

// An in-process handler's request context ends when its call does, as a
// server's does, whatever the flight's exchange goes on to do: a handler
// that ties work to it sees every one end.
func TestInProcessHandlerContextEndsWithItsCall(t *testing.T) {
	var ended sync.WaitGroup
	var calls atomic.Int64
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		ended.Add(1)
		go func() {
			defer ended.Done()
			<-r.Context().Done()
		}()
	})
	res, _ := runWith(t, policytest.Lookup(t, "stripe"), h, 20, time.Second, 4)
	if res.Delivered != 20 {
		t.Fatalf("delivered %d of 20", res.Delivered)
	}
	all := make(chan struct{})
	go func() { ended.Wait(); close(all) }()
	select {
	case <-all:
	case <-time.After(10 * time.Second):
		t.Fatalf("of %d handler calls, some request contexts never ended", calls.Load())
	}
}
