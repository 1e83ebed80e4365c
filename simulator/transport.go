package simulator

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httptrace"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/retrysim/retrysim/policies"
)

// maxBody is how much of an answer the engine reads; providers ignore the
// body, and a handler that streams forever must not hold an attempt open.
const maxBody = 64 << 10

// VirtualTimeHeader carries an attempt's virtual time (RFC 3339) so that a
// cooperating handler can use it, for example to expire dedup keys.
const VirtualTimeHeader = "Retrysim-Virtual-Time"

// newClient builds the client the engine sends with: the provider's timeout
// as a real client timeout (a flight's exchange goes straight to the
// client's transport and bounds itself the same way, see tracer), no
// redirect followed by itself (exchange follows the provider's), no proxy
// from the environment, a keep-alive pool of at most two connections per
// attempt in flight, and, unless remote targets are allowed, a dialer that
// connects to loopback addresses only (checked on the resolved address of
// every connection, redirects included).
func newClient(cfg *Config) *http.Client {
	p := &cfg.Policy
	return guardedClient(clientOptions{
		timeout: p.Timeout.D(), connect: p.ConnectTimeout.D(),
		allowRemote: cfg.AllowRemote, tls: cfg.TLS, handler: cfg.Handler, pool: cfg.Concurrency,
		hosts: []string{hostOf(cfg.URL)},
	})
}

// release frees what the engine holds once a run is over: the idle
// keep-alive connections of a client it built (a caller's own client is the
// caller's to manage).
func (e *engine) release() {
	e.q.close() // a temporary file only; nothing of it is read again
	if e.client != nil && e.cfg.Client == nil {
		e.client.CloseIdleConnections()
	}
}

// answer is what one HTTP exchange produced.
type answer struct {
	status  int // the handler's status; 0 when none arrived
	reached bool
	latency time.Duration
	err     error
	timeout bool
	stop    http.Header // the answer's headers, for stop signals
	// redirects is how many redirects were followed to get the answer.
	redirects int
	// invalid says an answer began to arrive and was not valid HTTP (a
	// malformed or cut-off status line or headers, headers too large).
	invalid bool
	// redirectRefused is where the answer, a redirect, led when the
	// dialer refused to connect there (not this machine, and remote
	// targets not allowed), its password masked; err is the refusal.
	redirectRefused string
	// redirectUnreached is where a redirect the handler answered led,
	// followed, when no connection could be made there (refused by the
	// address, no route), its password masked; err is the dial's error.
	// Nothing was sent there.
	redirectUnreached string
}

// exchange sends one request, following up to follow redirects as the
// provider does (see doFollowing), and reads at most maxBody of the answer.
// The client's timeout bounds the whole exchange, redirects included.
func exchange(ctx context.Context, client *http.Client, wall wallClock, req *http.Request, follow int) answer {
	ctx, cancel := exchangeContext(ctx, client, follow)
	defer cancel()
	t, ctx := newTracer(ctx, wall)
	return t.exchange(client, nil, req.WithContext(ctx), follow)
}

// roundTrip sends req through rt as http.Client would with no redirect
// followed: with the Basic credentials the URL names, unless the request
// has its own Authorization, and with a redirect whose Location does not
// parse as the client's error, so that an attempt comes to the same at any
// concurrency (a serial run goes through the client).
func roundTrip(rt http.RoundTripper, req *http.Request) (*http.Response, error) {
	if u := req.URL.User; u != nil && req.Header.Get("Authorization") == "" {
		password, _ := u.Password()
		req.SetBasicAuth(u.Username(), password)
	}
	resp, err := rt.RoundTrip(req)
	if err != nil || !policies.IsRedirect(resp.StatusCode) {
		return resp, err
	}
	if loc := resp.Header.Get("Location"); loc != "" {
		if _, perr := req.URL.Parse(loc); perr != nil {
			resp.Body.Close()
			return nil, fmt.Errorf("failed to parse Location header %q: %v", loc, perr)
		}
	}
	return resp, nil
}

// wallClock is what an exchange reads of the wall clock.
type wallClock interface {
	Since(time.Time) time.Duration
	Now() time.Time
}

// exchangeContext is ctx bounded by the client's timeout when redirects may
// be followed: the client's own timeout bounds each request, and the
// provider's bounds the whole exchange.
func exchangeContext(ctx context.Context, client *http.Client, follow int) (context.Context, context.CancelFunc) {
	if follow > 0 && client.Timeout > 0 {
		return context.WithTimeout(ctx, client.Timeout)
	}
	return ctx, func() {}
}

// tracer follows the requests of one exchange as net/http writes them and
// their answers begin to arrive. The function exchange makes one for each
// exchange; the engine takes one from tracers and puts it back after the
// exchange when no hook of it can still be called (see release).
type tracer struct {
	trace  httptrace.ClientTrace
	wall   wallClock
	notify writeWatcher // see withWrote; nil when no one asked
	token  uint32       // what notify said to tell it
	wrote  atomic.Bool
	// wroteAt is when the first request was written, in wall-clock
	// nanoseconds.
	wroteAt atomic.Int64
	// answering says the answer to the latest request (of a redirect
	// chain) had begun to arrive: an error after that is in the answer.
	answering atomic.Bool
	// conns counts the requests given a connection, writes those whose
	// write ended: a request is written after it has a connection, and
	// WroteRequest is its last hook.
	conns, writes atomic.Int32

	// A flight's tracer (owner's, see flight.tracer) is itself the
	// context its requests are made with: the values of parent (the run's
	// context without its cancellation) and of traced, which carries the
	// hooks alone; its deadline is its own (below). These never change.
	owner  *flight
	traced context.Context
	parent context.Context

	// A flight's tracer also bounds its exchange by the provider's
	// timeout (bound), as http.Client's Timeout would: the deadline, done
	// closed when it passes, and what context.AfterFunc asked to be
	// called then (net/http's context for each request, derived from
	// this one). Client's timeout made a context and a timer for every
	// request, and each request's own context registered with it: without
	// them the engine's HTTP path runs at 0.90 of a plain client at
	// concurrency 64, not 0.83 (BenchmarkHTTPStripe). A tracer whose
	// timer may have fired (stale) is not used again, so done is closed
	// at most once. What goroutines net/http leaves running (a dial going
	// on for the pool) may see a later exchange's deadline.
	deadline atomic.Int64 // wall-clock Unix nanoseconds; 0: none
	done     chan struct{}
	expired  atomic.Bool
	timer    *time.Timer
	armed    bool
	stale    bool
	mu       sync.Mutex
	after    []afterFunc
	afterID  uint64
}

// newTracer returns a tracer for one exchange and ctx carrying its hooks:
// the requests of the exchange are to be made with that context.
func newTracer(ctx context.Context, wall wallClock) (*tracer, context.Context) {
	t := makeTracer()
	t.start(ctx, wall)
	return t, httptrace.WithClientTrace(ctx, &t.trace)
}

// makeTracer makes a tracer and its hooks.
func makeTracer() *tracer {
	t := &tracer{}
	t.trace = httptrace.ClientTrace{
		GetConn: func(string) {
			t.answering.Store(false)
			t.conns.Add(1)
		},
		WroteRequest: func(i httptrace.WroteRequestInfo) {
			if i.Err == nil {
				t.wroteAt.CompareAndSwap(0, t.wall.Now().UnixNano())
				t.wrote.Store(true)
				if t.notify != nil {
					t.notify.wrote(t.token)
				}
			}
			t.writes.Add(1) // last: after it, release may hand t to another exchange
		},
		GotFirstResponseByte: func() { t.answering.Store(true) },
	}
	return t
}

// start readies t for an exchange made with ctx.
func (t *tracer) start(ctx context.Context, wall wallClock) {
	t.wall = wall
	if w, ok := ctx.Value(wroteKey{}).(writeWatcher); ok {
		t.notify, t.token = w, w.watching()
	}
}

// release readies t, a flight's (see flight.tracer), for the flight's
// next exchange once the exchange that ended with err is over, if none of
// its hooks can be called again: every request given a connection has
// been written (a write can end after its answer came) and every request
// was answered (an unanswered one's first byte could still come), its
// deadline cannot have passed (stale) and no context made from it is still
// registered. Else it is left to the garbage collector. What goroutines
// net/http leaves running may still read the values of t as a context (a
// dial goes on for the next request): its values never change, its
// deadline is the current exchange's.
func (t *tracer) release(err error) {
	if t.owner == nil || err != nil || t.writes.Load() < t.conns.Load() || t.stale || t.waiting() {
		return
	}
	t.wrote.Store(false)
	t.wroteAt.Store(0)
	t.answering.Store(false)
	t.conns.Store(0)
	t.writes.Store(0)
	t.owner.spare.Store(t)
}

// A flight's tracer is the context of its exchange's requests.

func (t *tracer) Deadline() (time.Time, bool) {
	if at := t.deadline.Load(); at != 0 {
		return time.Unix(0, at), true
	}
	return time.Time{}, false
}

func (t *tracer) Done() <-chan struct{} { return t.done }

func (t *tracer) Err() error {
	if t.expired.Load() {
		return context.DeadlineExceeded
	}
	return nil
}

func (t *tracer) Value(key any) any {
	if v := t.traced.Value(key); v != nil {
		return v
	}
	return t.parent.Value(key)
}

func (t *tracer) String() string { return "retrysim exchange" }

// exchange sends req, made with the tracer's context, as the function
// exchange does: through client, or straight through rt when it is not
// nil (no redirect is followed then), with the tracer's bound lifted once
// the answer has been read.
func (t *tracer) exchange(client *http.Client, rt http.RoundTripper, req *http.Request, follow int) answer {
	start := t.wall.Now()
	var resp *http.Response
	var hops int
	var led *url.URL
	var err error
	if rt != nil {
		resp, err = roundTrip(rt, req)
	} else {
		resp, hops, led, err = doFollowing(client, req, follow)
	}
	defer t.unbound()
	a := answer{redirects: hops}
	inBody := false // the error, if any, came reading the answer's body
	switch {
	case led == nil:
	case errors.Is(err, ErrRemoteTarget):
		// The handler answered with a redirect that cannot be followed:
		// that answer is what the provider got (its body already read).
		a.status, a.stop, a.redirectRefused = resp.StatusCode, resp.Header, led.Redacted()
	default:
		a.redirectUnreached = led.Redacted()
	}
	if err == nil {
		_, err = io.Copy(io.Discard, io.LimitReader(resp.Body, maxBody))
		resp.Body.Close()
		a.status = resp.StatusCode
		a.stop = resp.Header
		inBody = true
		if err != nil && !isTimeout(err) {
			// The status line arrived; a broken body does not change what
			// the provider decided.
			err = nil
		}
	}
	// The handler's response time runs from the request written to the end
	// of the answer: connecting (a new connection, a TLS handshake) is the
	// network's time, not the handler's.
	if at := t.wroteAt.Load(); at != 0 {
		start = time.Unix(0, at)
	}
	a.latency = t.wall.Since(start)
	a.reached = t.wrote.Load()
	if err != nil {
		a.err = err
		a.timeout = isTimeout(err)
		if a.timeout {
			a.status = 0
			a.err = timedOut(err, client.Timeout, inBody)
		}
		a.invalid = !a.timeout && a.status == 0 && t.answering.Load()
	}
	return a
}

// detached is ctx without its cancellation and deadline, as
// context.WithoutCancel returns it, except that looking a value up
// through it allocates nothing (WithoutCancel's allocates on each lookup,
// and net/http looks up several values for every request).
type detached struct{ context.Context }

func (detached) Deadline() (time.Time, bool) { return time.Time{}, false }
func (detached) Done() <-chan struct{}       { return nil }
func (detached) Err() error                  { return nil }
func (c detached) Value(key any) any         { return c.Context.Value(key) }
func (c detached) String() string            { return "detached" }

// wroteKey is the context key of the writeWatcher exchange tells whenever
// a request of the exchange has been written (see withWrote).
type wroteKey struct{}

// writeWatcher is told when the requests of an exchange have been written.
type writeWatcher interface {
	// watching returns a token for an exchange about to start.
	watching() uint32
	// wrote is called with that token each time one of the exchange's
	// requests has been written to the handler, possibly after the
	// exchange is over (net/http may end a write after the answer came).
	wrote(token uint32)
}

// withWrote returns ctx carrying w, which exchange tells each time a
// request of the exchange has been written to the handler. A hook carried
// this way costs a context value; a second httptrace.ClientTrace would be
// composed with exchange's own by reflection on every request. A watcher
// that is a pointer, and a token rather than a closure for each exchange,
// cost nothing more.
func withWrote(ctx context.Context, w writeWatcher) context.Context {
	return context.WithValue(ctx, wroteKey{}, w)
}

func isTimeout(err error) bool {
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return true
	}
	return errors.Is(err, context.DeadlineExceeded)
}

// newRequest builds attempt n of an event: the payload, the provider's signed
// headers and the virtual-time header.
func newRequest(ctx context.Context, target string, ev *policies.Event, body []byte, contentType string, d policies.Delivery, wire policies.Wire, virtual time.Time) (*http.Request, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, target, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	// Set as Header.Set would, with the two values in one allocation.
	vals := []string{contentType, virtual.UTC().Format(time.RFC3339Nano)}
	req.Header["Content-Type"] = vals[0:1:1]
	wire.Header(req.Header, d)
	req.Header[VirtualTimeHeader] = vals[1:2:2]
	return req, nil
}

// signedURL is the URL a provider signs: the target without a fragment
// (Twilio's connection overrides live in the fragment).
func signedURL(target string) string {
	u, err := url.Parse(target)
	if err != nil {
		return target
	}
	u.Fragment = ""
	return u.String()
}

// describe turns a transport error into a short phrase for the record.
func describe(err error) string {
	if err == nil {
		return ""
	}
	s := err.Error()
	var ue *url.Error
	if errors.As(err, &ue) {
		s = ue.Err.Error()
	}
	return strings.TrimSpace(s)
}

// handlerTransport sends requests through an http.Handler in process, with
// no socket, honouring the request's context so that a handler that hangs
// still times out. A handler cut off that way goes on running, as a real
// server goes on after its client hangs up: calls counts every handler call
// still running, so that the engine can wait for them before it reads the
// effects and returns.
type handlerTransport struct {
	h     http.Handler
	calls handlerCalls
}

func (t *handlerTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	rec := cappedRecorder{httptest.NewRecorder()}
	done := make(chan struct{})
	// The handler's request context is its own, ended when the handler
	// returns or the exchange's time runs out, as a server's is.
	ctx, cancel := context.WithCancel(req.Context())
	in := req.Clone(ctx)
	in.RequestURI = req.URL.RequestURI()
	if in.RemoteAddr == "" {
		in.RemoteAddr = "127.0.0.1:0"
	}
	if trace := httptrace.ContextClientTrace(req.Context()); trace != nil && trace.WroteRequest != nil {
		trace.WroteRequest(httptrace.WroteRequestInfo{})
	}
	t.calls.add()
	go func() {
		// Counted out before done is closed, so that a call that answered
		// is never counted as still running.
		defer close(done)
		defer t.calls.done()
		defer cancel()
		defer func() {
			if r := recover(); r != nil {
				rec.Code = http.StatusInternalServerError
			}
		}()
		t.h.ServeHTTP(rec, in)
	}()
	select {
	case <-done:
		return rec.Result(), nil
	case <-req.Context().Done():
		return nil, req.Context().Err()
	}
}

// cappedRecorder keeps at most maxBody of what a handler writes and drops
// the rest, so an in-process handler that writes without end cannot fill
// memory.
type cappedRecorder struct{ *httptest.ResponseRecorder }

func (c cappedRecorder) Write(p []byte) (int, error) {
	if room := maxBody - c.Body.Len(); room < len(p) {
		if room > 0 {
			c.ResponseRecorder.Write(p[:room])
		}
		return len(p), nil
	}
	return c.ResponseRecorder.Write(p)
}

func (c cappedRecorder) WriteString(s string) (int, error) { return c.Write([]byte(s)) }

// timedOut is err, a timeout, as the record says it when it is the
// provider's timeout, limit, that passed: the same words whichever way the
// request went (a flight's own deadline or http.Client's Timeout), saying
// whether the answer had begun (inBody).
func timedOut(err error, limit time.Duration, inBody bool) error {
	if limit <= 0 || !errors.Is(err, context.DeadlineExceeded) {
		return err // another timeout (connecting), which says so itself
	}
	return &exchangeTimeout{limit: limit, inBody: inBody}
}

// exchangeTimeout is the provider's timeout passing on an exchange.
type exchangeTimeout struct {
	limit  time.Duration
	inBody bool
}

func (e *exchangeTimeout) Error() string {
	if e.inBody {
		return "the answer's body did not arrive within the " + policies.FormatDuration(e.limit) + " timeout"
	}
	return "no answer within the " + policies.FormatDuration(e.limit) + " timeout"
}

func (e *exchangeTimeout) Timeout() bool        { return true }
func (e *exchangeTimeout) Is(target error) bool { return target == context.DeadlineExceeded }
