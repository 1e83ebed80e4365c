package demo

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"
)

// Loopback is a demo handler served on a random loopback port: what run
// and replay send to when they are given no URL.
type Loopback struct {
	// Handler is the handler served; its Effects is the run's oracle.
	Handler *Handler
	// URL is where provider's deliveries go.
	URL  string
	addr string // host:port the server listens on, again after a restart
	srv  *http.Server
	// ln is the server's listener. The Loopback closes it itself: the
	// server closes only a listener its Serve has begun on, and the
	// goroutine that calls Serve may not have run yet.
	ln net.Listener
	// served is closed when the server's Serve has returned.
	served chan struct{}
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
	d := &Loopback{Handler: h, addr: ln.Addr().String()}
	d.URL = fmt.Sprintf("http://%s%s%s", d.addr, WebhookPath, provider)
	d.serve(ln)
	return d, nil
}

// serve serves the handler on ln with a new server.
func (d *Loopback) serve(ln net.Listener) {
	d.srv, d.ln, d.served = NewServer(d.Handler), ln, make(chan struct{})
	go func(srv *http.Server, served chan struct{}) {
		defer close(served)
		srv.Serve(ln)
	}(d.srv, d.served)
}

// Close shuts the server down, letting requests in flight finish for up to
// five seconds, and closes the handler.
func (d *Loopback) Close() {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	d.srv.Shutdown(ctx)
	d.ln.Close()
	<-d.served
	d.Handler.Close()
}

// Restart stops the built-in demo server abruptly (every connection closed,
// as if its process were killed) and serves the same handler, whose state
// lives in SQLite, on the same address again, having lost what a process
// holds in memory. The old server has let go of the address when it
// listens again; an error says the address was taken in between.
func (d *Loopback) Restart(context.Context) error {
	if err := d.srv.Close(); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	d.ln.Close()
	<-d.served
	d.Handler.Restart()
	ln, err := net.Listen("tcp", d.addr)
	if err != nil {
		return fmt.Errorf("demo handler: listening again on %s: %w", d.addr, err)
	}
	d.serve(ln)
	return nil
}
