package demo

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"time"
)

// Loopback is a demo handler served on a random loopback port: what run
// and replay send to when they are given no URL.
type Loopback struct {
	// Handler is the handler served; its Effects is the run's oracle.
	Handler *Handler
	// URL is where provider's deliveries go.
	URL string
	srv *http.Server
}

// ServeLoopback serves a new handler of mode, checking provider's
// signatures with secret, on a random loopback port.
func ServeLoopback(mode Mode, provider, secret string, opts ...Option) (*Loopback, error) {
	h, err := New(mode, append([]Option{WithSecret(provider, secret)}, opts...)...)
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		h.Close()
		return nil, err
	}
	srv := NewServer(h)
	go srv.Serve(ln)
	return &Loopback{Handler: h, srv: srv, URL: fmt.Sprintf("http://%s%s%s", ln.Addr(), WebhookPath, provider)}, nil
}

// Close shuts the server down, letting requests in flight finish for up to
// five seconds, and closes the handler.
func (d *Loopback) Close() {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	d.srv.Shutdown(ctx)
	d.Handler.Close()
}

// Restart stops the built-in demo server abruptly (every connection closed,
// as if its process were killed) and serves the same handler, whose state
// lives in SQLite, on the same address again, having lost what a process
// holds in memory.
func (d *Loopback) Restart(context.Context) error {
	u, err := url.Parse(d.URL)
	if err != nil {
		return err
	}
	if err := d.srv.Close(); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	d.Handler.Restart()
	ln, err := net.Listen("tcp", u.Host)
	if err != nil {
		return fmt.Errorf("demo handler: listening again on %s: %w", u.Host, err)
	}
	d.srv = NewServer(d.Handler)
	go d.srv.Serve(ln)
	return nil
}
