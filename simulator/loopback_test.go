package simulator

import (
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
)

// newLoopback serves h on 127.0.0.1 for the test and returns its URL.
func newLoopback(t *testing.T, h http.Handler) string {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv.URL
}

// seenRequest is one request as a loopback server saw it.
type seenRequest struct {
	method, path string
	header       http.Header
	body         []byte
}

// requestLog serves routes on 127.0.0.1 and keeps every request it saw.
type requestLog struct {
	mu   sync.Mutex
	seen []seenRequest
}

func (l *requestLog) serve(t *testing.T, route func(w http.ResponseWriter, r *http.Request)) string {
	t.Helper()
	return newLoopback(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		l.mu.Lock()
		l.seen = append(l.seen, seenRequest{method: r.Method, path: r.URL.Path, header: r.Header.Clone(), body: body})
		l.mu.Unlock()
		route(w, r)
	}))
}

func (l *requestLog) requests() []seenRequest {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]seenRequest(nil), l.seen...)
}
