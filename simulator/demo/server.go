package demo

import (
	"net/http"
	"time"
)

// The demo server's time limits. A webhook is a small POST answered at
// once, so a connection that takes longer to send one, or sits idle
// between requests, is closed rather than held open: 2,000 slow clients
// must not keep 2,000 connections.
const (
	// ReadHeaderTimeout bounds reading a request's headers.
	ReadHeaderTimeout = 10 * time.Second
	// ReadTimeout bounds reading a whole request, body included.
	ReadTimeout = 30 * time.Second
	// IdleTimeout bounds a keep-alive connection's wait for its next
	// request.
	IdleTimeout = 30 * time.Second
)

// NewServer is the HTTP server every demo handler is served with (the
// demo command, run without --url, and the example programs).
func NewServer(h http.Handler) *http.Server {
	return newServer(h, ReadTimeout, IdleTimeout)
}

// newServer is NewServer with the whole-request and idle limits given (a
// test shortens them).
func newServer(h http.Handler, read, idle time.Duration) *http.Server {
	return &http.Server{Handler: h, ReadHeaderTimeout: min(ReadHeaderTimeout, read), ReadTimeout: read, IdleTimeout: idle}
}
