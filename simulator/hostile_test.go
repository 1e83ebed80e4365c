package simulator

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/retrysim/retrysim/policies"
)

// hostileTimeout is the provider timeout of the hostile-handler cases that
// must end by the timeout: short, so that the suite stays fast.
const hostileTimeout = time.Second

// patientTimeout is the provider timeout of the cases that must end some
// other way: by an answer, a refusal or a limit (a megabyte of 1xx answers,
// a 2 MiB header). Those do work the timeout would race on a loaded
// machine under the race detector, and the timeout is not what they test,
// so it is far away.
const patientTimeout = 30 * time.Second

// hostilePolicy is a provider with the given timeout and one retry a minute
// later (virtual time, so it costs nothing).
func hostilePolicy(t *testing.T, follow int, timeout time.Duration) policies.Policy {
	t.Helper()
	p := policies.Policy{
		Name: "hostile", Provider: "stripe", Timeout: policies.Duration(timeout),
		FollowRedirects: follow,
		Schedule:        policies.ScheduleSpec{Delays: []policies.Duration{policies.Duration(time.Minute)}},
	}
	if err := p.Init(); err != nil {
		t.Fatal(err)
	}
	return p
}

// Whether an attempt reached the handler, as a test expects it.
const (
	reachedAny = iota
	reachedYes
	reachedNo
)

// httpServer serves h on 127.0.0.1 until the test ends.
func httpServer(t *testing.T, h http.HandlerFunc) string {
	t.Helper()
	srv := httptest.NewUnstartedServer(h)
	srv.Config.ErrorLog = quietLog()
	srv.Start()
	t.Cleanup(srv.Close)
	return srv.URL + "/hook"
}

// tlsServer serves 200 over TLS with a self-signed certificate and returns
// its URL and a pool that trusts it.
func tlsServer(t *testing.T) (string, *x509.CertPool) {
	t.Helper()
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {}))
	srv.Config.ErrorLog = quietLog()
	srv.StartTLS()
	t.Cleanup(srv.Close)
	pool := x509.NewCertPool()
	pool.AddCert(srv.Certificate())
	return srv.URL + "/hook", pool
}

// answerThenHang writes a fixed answer after reading the request, then waits for
// the test's end with the connection open.
func answerThenHang(s string) func(net.Conn, <-chan struct{}) {
	return func(c net.Conn, done <-chan struct{}) {
		readRequest(c)
		if _, err := write(c, s); err != nil {
			return
		}
		<-done
	}
}

// answerAndClose writes a fixed answer after reading the request and closes.
func answerAndClose(s string) func(net.Conn, <-chan struct{}) {
	return func(c net.Conn, _ <-chan struct{}) {
		readRequest(c)
		write(c, s)
	}
}

func write(c net.Conn, s string) (int, error) { return c.Write([]byte(s)) }

// quietLog discards a test server's log: hostile exchanges make it complain.
func quietLog() *log.Logger { return log.New(io.Discard, "", 0) }

// TestHostileHandlers sends a short run to handlers that misbehave in every
// way we know of. Each must end as a classified outcome within the
// provider's timeout, the run must complete, and nothing may leak: no
// goroutine, no socket.
func TestHostileHandlers(t *testing.T) {
	before := baseline(t)

	cases := []struct {
		name    string
		start   func(t *testing.T) target
		follow  int
		want    Outcome
		status  int    // the status the provider saw, for answers that arrived
		reached int    // reachedAny, reachedYes or reachedNo
		errHas  string // a phrase the record's error must contain
	}{
		{
			name: "hangs forever after reading the request",
			start: func(t *testing.T) target {
				return plain(startRaw(t, func(c net.Conn, done <-chan struct{}) { readRequest(c); <-done }))
			},
			want: Timeout, reached: reachedYes, errHas: "timeout",
		},
		{
			name: "accepts the connection and never reads",
			start: func(t *testing.T) target {
				return plain(startRaw(t, func(_ net.Conn, done <-chan struct{}) { <-done }))
			},
			want: Timeout, errHas: "timeout",
		},
		{
			name: "never accepts the connection",
			start: func(t *testing.T) target {
				ln, err := net.Listen("tcp", "127.0.0.1:0")
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { ln.Close() })
				return plain("http://" + ln.Addr().String() + "/hook")
			},
			want: Timeout, errHas: "timeout",
		},
		{
			name: "answers after the timeout",
			start: func(t *testing.T) target {
				return plain(httpServer(t, func(w http.ResponseWriter, r *http.Request) {
					io.Copy(io.Discard, r.Body) // so the server notices the client leave
					select {
					case <-r.Context().Done():
					case <-time.After(10 * hostileTimeout):
					}
				}))
			},
			want: Timeout, reached: reachedYes,
		},
		{
			name: "endless body after 200 (at most 64 KiB is read)",
			start: func(t *testing.T) target {
				return plain(httpServer(t, func(w http.ResponseWriter, r *http.Request) {
					chunk := []byte(strings.Repeat("x", 32<<10))
					for r.Context().Err() == nil {
						if _, err := w.Write(chunk); err != nil {
							return
						}
					}
				}))
			},
			want: Delivered, status: 200, reached: reachedYes,
		},
		{
			name: "500 with a 16 MiB body",
			start: func(t *testing.T) target {
				return plain(httpServer(t, func(w http.ResponseWriter, _ *http.Request) {
					w.WriteHeader(500)
					w.Write([]byte(strings.Repeat("e", 16<<20)))
				}))
			},
			want: HTTPError, status: 500, reached: reachedYes,
		},
		{
			name: "dribbles the status line one byte a second",
			start: func(t *testing.T) target {
				return plain(startRaw(t, func(c net.Conn, done <-chan struct{}) {
					readRequest(c)
					dribble(c, done, "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n", time.Second)
				}))
			},
			want: Timeout, reached: reachedYes,
		},
		{
			name: "200 then a body dribbled one byte a second",
			start: func(t *testing.T) target {
				return plain(startRaw(t, func(c net.Conn, done <-chan struct{}) {
					readRequest(c)
					if _, err := write(c, "HTTP/1.1 200 OK\r\nContent-Length: 50\r\n\r\n"); err != nil {
						return
					}
					dribble(c, done, strings.Repeat("b", 50), time.Second)
				}))
			},
			want: Timeout, reached: reachedYes,
		},
		{
			name: "slow headers: one header line every 100ms, never ending",
			start: func(t *testing.T) target {
				return plain(startRaw(t, func(c net.Conn, done <-chan struct{}) {
					readRequest(c)
					if _, err := write(c, "HTTP/1.1 200 OK\r\n"); err != nil {
						return
					}
					tk := time.NewTicker(hostileTimeout / 3)
					defer tk.Stop()
					for i := 0; ; i++ {
						if _, err := write(c, fmt.Sprintf("X-Slow-%d: yes\r\n", i)); err != nil {
							return
						}
						select {
						case <-tk.C:
						case <-done:
							return
						}
					}
				}))
			},
			want: Timeout, reached: reachedYes,
		},
		{
			name: "huge header (2 MiB, over the 1 MiB limit)",
			start: func(t *testing.T) target {
				return plain(startRaw(t, answerAndClose("HTTP/1.1 200 OK\r\nX-Huge: "+strings.Repeat("h", 2<<20)+"\r\n\r\n")))
			},
			want: InvalidResponse, reached: reachedYes, errHas: "exceeded",
		},
		{
			name: "invalid HTTP (another protocol's banner)",
			start: func(t *testing.T) target {
				return plain(startRaw(t, answerThenHang("SSH-2.0-OpenSSH_9.6\r\n\r\n")))
			},
			want: InvalidResponse, reached: reachedYes, errHas: "malformed HTTP",
		},
		{
			name: "garbage status code",
			start: func(t *testing.T) target {
				return plain(startRaw(t, answerThenHang("HTTP/1.1 2x0 OK\r\nContent-Length: 0\r\n\r\n")))
			},
			want: InvalidResponse, reached: reachedYes, errHas: "malformed HTTP status code",
		},
		{
			name: "closes in the middle of the headers",
			start: func(t *testing.T) target {
				return plain(startRaw(t, answerAndClose("HTTP/1.1 200 OK\r\nContent-Ty")))
			},
			want: InvalidResponse, reached: reachedYes, errHas: "malformed MIME header",
		},
		{
			name: "closes in the middle of the status line",
			start: func(t *testing.T) target {
				return plain(startRaw(t, answerAndClose("HTTP/1.1 20")))
			},
			want: InvalidResponse, reached: reachedYes,
		},
		{
			name: "closes without answering",
			start: func(t *testing.T) target {
				return plain(startRaw(t, answerAndClose("")))
			},
			want: ConnectionFailed, reached: reachedYes, errHas: "EOF",
		},
		{
			name: "resets the connection",
			start: func(t *testing.T) target {
				return plain(startRaw(t, func(c net.Conn, _ <-chan struct{}) {
					readRequest(c)
					c.(*net.TCPConn).SetLinger(0)
				}))
			},
			want: ConnectionFailed, reached: reachedYes, errHas: "reset",
		},
		{
			name: "handler aborts (net/http panic)",
			start: func(t *testing.T) target {
				return plain(httpServer(t, func(http.ResponseWriter, *http.Request) { panic(http.ErrAbortHandler) }))
			},
			want: ConnectionFailed, reached: reachedYes, errHas: "EOF",
		},
		{
			name: "answers 100 Continue and stops",
			start: func(t *testing.T) target {
				return plain(startRaw(t, answerThenHang("HTTP/1.1 100 Continue\r\n\r\n")))
			},
			want: Timeout, reached: reachedYes,
		},
		{
			name: "a storm of 1xx answers and never a final one",
			start: func(t *testing.T) target {
				return plain(startRaw(t, func(c net.Conn, done <-chan struct{}) {
					readRequest(c)
					if _, err := write(c, strings.Repeat("HTTP/1.1 102 Processing\r\n\r\n", 100_000)); err != nil {
						return
					}
					<-done
				}))
			},
			want: InvalidResponse, reached: reachedYes, errHas: "exceeded",
		},
		{
			name: "Content-Length promises more than is sent, then closes",
			start: func(t *testing.T) target {
				return plain(startRaw(t, answerAndClose("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nshort")))
			},
			want: Delivered, status: 200, reached: reachedYes,
		},
		{
			name: "Content-Length promises more than is sent, then stalls",
			start: func(t *testing.T) target {
				return plain(startRaw(t, answerThenHang("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nshort")))
			},
			want: Timeout, reached: reachedYes,
		},
		{
			name: "HTTP/1.0 answer whose body ends when the connection closes",
			start: func(t *testing.T) target {
				return plain(startRaw(t, answerAndClose("HTTP/1.0 202 Accepted\r\n\r\nok, queued")))
			},
			want: Delivered, status: 202, reached: reachedYes,
		},
		{
			name: "redirect loop, provider follows 3 redirects",
			start: func(t *testing.T) target {
				return plain(httpServer(t, func(w http.ResponseWriter, r *http.Request) {
					http.Redirect(w, r, r.URL.Path, http.StatusTemporaryRedirect)
				}))
			},
			follow: 3, want: Redirect, status: 307, reached: reachedYes,
		},
		{
			name: "redirects slowly: each hop within the timeout, the chain not",
			start: func(t *testing.T) target {
				return plain(httpServer(t, func(w http.ResponseWriter, r *http.Request) {
					select {
					case <-r.Context().Done():
						return
					case <-time.After(hostileTimeout * 6 / 10):
					}
					http.Redirect(w, r, r.URL.Path, http.StatusFound)
				}))
			},
			follow: 2, want: Timeout, reached: reachedYes,
		},
		{
			name: "redirect loop, provider follows none",
			start: func(t *testing.T) target {
				return plain(httpServer(t, func(w http.ResponseWriter, r *http.Request) {
					http.Redirect(w, r, r.URL.Path, http.StatusFound)
				}))
			},
			want: Redirect, status: 302, reached: reachedYes,
		},
		{
			name: "redirect to a non-loopback address is refused before connecting",
			start: func(t *testing.T) target {
				return plain(httpServer(t, func(w http.ResponseWriter, r *http.Request) {
					http.Redirect(w, r, "http://192.0.2.1/steal", http.StatusTemporaryRedirect)
				}))
			},
			follow: 2, want: Redirect, status: 307, reached: reachedYes, errHas: "refusing to connect to 192.0.2.1",
		},
		{
			name: "redirect to an IPv4-mapped IPv6 address elsewhere is refused",
			start: func(t *testing.T) target {
				return plain(httpServer(t, func(w http.ResponseWriter, r *http.Request) {
					http.Redirect(w, r, "http://[::ffff:192.0.2.7]:8080/steal", http.StatusTemporaryRedirect)
				}))
			},
			follow: 2, want: Redirect, status: 307, reached: reachedYes, errHas: "refusing to connect to 192.0.2.7",
		},
		{
			name: "TLS with a self-signed certificate, not trusted",
			start: func(t *testing.T) target {
				u, _ := tlsServer(t)
				return target{url: u}
			},
			want: ConnectionFailed, reached: reachedNo, errHas: "certificate",
		},
		{
			name: "TLS with a self-signed certificate, trusted with --ca",
			start: func(t *testing.T) target {
				u, pool := tlsServer(t)
				return target{url: u, tls: &tls.Config{RootCAs: pool}}
			},
			want: Delivered, status: 200, reached: reachedYes,
		},
		{
			name: "TLS with a self-signed certificate, not verified with --insecure",
			start: func(t *testing.T) target {
				u, _ := tlsServer(t)
				return target{url: u, tls: &tls.Config{InsecureSkipVerify: true}}
			},
			want: Delivered, status: 200, reached: reachedYes,
		},
		{
			name: "https:// to a server that speaks plain HTTP",
			start: func(t *testing.T) target {
				u := httpServer(t, func(http.ResponseWriter, *http.Request) {})
				return target{url: "https://" + strings.TrimPrefix(u, "http://")}
			},
			want: ConnectionFailed, reached: reachedNo,
		},
		{
			name: "nothing listening",
			start: func(t *testing.T) target {
				ln, err := net.Listen("tcp", "127.0.0.1:0")
				if err != nil {
					t.Fatal(err)
				}
				addr := ln.Addr().String()
				ln.Close()
				return plain("http://" + addr + "/hook")
			},
			want: ConnectionFailed, reached: reachedNo, errHas: "refused",
		},
	}

	t.Run("behaviours", func(t *testing.T) {
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				t.Parallel()
				tg := tc.start(t)
				const events = 2
				timeout := patientTimeout
				if tc.want == Timeout {
					timeout = hostileTimeout
				}
				var recs []Record
				res, err := Run(context.Background(), Config{
					Policy: hostilePolicy(t, tc.follow, timeout), URL: tg.url, TLS: tg.tls,
					Events: events, Over: time.Second, Secret: "whsec_hostile",
					Sink: func(r *Record) error { recs = append(recs, *r); return nil },
				})
				if err != nil {
					t.Fatalf("run did not complete: %v", err)
				}
				if res.Interrupted {
					t.Fatal("run reported as interrupted")
				}
				if last := recs[len(recs)-1]; last.Kind != KindEnd {
					t.Fatalf("last record is %q, want the run's end", last.Kind)
				}
				wantAttempts := events
				if tc.want.Failed() {
					wantAttempts = 2 * events // the retry a minute later fails the same way
				}
				if res.Attempts != wantAttempts {
					t.Errorf("attempts = %d, want %d", res.Attempts, wantAttempts)
				}
				for _, r := range recs {
					if r.Kind != KindAttempt {
						continue
					}
					where := fmt.Sprintf("event %d attempt %d", r.Seq, r.Attempt)
					if r.Outcome != tc.want {
						t.Errorf("%s: outcome %s (%s), want %s", where, r.Outcome, r.Error, tc.want)
					}
					if tc.status != 0 && r.Status != tc.status {
						t.Errorf("%s: status %d, want %d", where, r.Status, tc.status)
					}
					if tc.reached == reachedYes && !r.Reached || tc.reached == reachedNo && r.Reached {
						t.Errorf("%s: reached_handler = %v, want %v", where, r.Reached, tc.reached == reachedYes)
					}
					if tc.errHas != "" && !strings.Contains(r.Error, tc.errHas) {
						t.Errorf("%s: error %q does not say %q", where, r.Error, tc.errHas)
					}
					// A timeout ends the attempt as a whole, however the
					// handler stalls: bounded by the timeout, with room
					// for a loaded machine (seen: 2.7 s). A handler that
					// held the attempt would take 10 s (the one that
					// answers late), 38 s (the dribble) or forever.
					if lat := r.Latency; tc.want == Timeout && lat > 5*hostileTimeout {
						t.Errorf("%s: took %s, past the %s timeout", where, lat, hostileTimeout)
					}
				}
			})
		}
	})
	noLeaks(t, before)
}
