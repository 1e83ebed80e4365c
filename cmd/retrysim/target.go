package main

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"time"

	"github.com/retrysim/retrysim/simulator"
	"github.com/retrysim/retrysim/simulator/demo"
)

// demoServer is the built-in demo handler served on a random loopback port.
type demoServer struct {
	handler *demo.Handler
	srv     *http.Server
	url     string
	unhook  func()
}

func startDemo(mode demo.Mode, provider, secret string, opts ...demo.Option) (*demoServer, error) {
	h, err := demo.New(mode, append([]demo.Option{demo.WithSecret(provider, secret)}, opts...)...)
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		h.Close()
		return nil, err
	}
	srv := demo.NewServer(h)
	go srv.Serve(ln)
	unhook := onExitNow(func() { h.RemoveTemp() })
	return &demoServer{handler: h, srv: srv, url: fmt.Sprintf("http://%s%s%s", ln.Addr(), demo.WebhookPath, provider), unhook: unhook}, nil
}

func (d *demoServer) close() {
	defer d.unhook()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	d.srv.Shutdown(ctx)
	d.handler.Close()
}

// effectsFromURL is the effects oracle for a user's handler: a GET that
// answers {"<dedup id>": <times processed>}, on loopback unless remote
// targets are allowed.
func effectsFromURL(rawURL string, allowRemote bool) simulator.EffectsFunc {
	host := ""
	if u, err := url.Parse(rawURL); err == nil {
		host = u.Hostname()
	}
	// Like the deliveries, the oracle takes no proxy from the environment.
	return simulator.EffectsURL(rawURL, simulator.NewClient(30*time.Second, allowRemote, host))
}
