package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"

	"github.com/retrysim/retrysim/examples/demo"
	"github.com/retrysim/retrysim/simulator"
)

// demoServer is the built-in demo handler served on a random loopback port.
type demoServer struct {
	handler *demo.Handler
	srv     *http.Server
	url     string
}

func startDemo(mode demo.Mode, provider, secret string) (*demoServer, error) {
	h, err := demo.New(mode, demo.WithSecret(provider, secret))
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		h.Close()
		return nil, err
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln)
	return &demoServer{handler: h, srv: srv, url: fmt.Sprintf("http://%s%s%s", ln.Addr(), demo.WebhookPath, provider)}, nil
}

func (d *demoServer) close() {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	d.srv.Shutdown(ctx)
	d.handler.Close()
}

// effectsFromURL is the effects oracle for a user's handler: a GET that
// answers {"<dedup id>": <times processed>}.
func effectsFromURL(url string) simulator.EffectsFunc {
	return func(ctx context.Context) (map[string]int, error) {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return nil, err
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return nil, err
		}
		defer resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return nil, fmt.Errorf("GET %s: %s", url, resp.Status)
		}
		var m map[string]int
		if err := json.NewDecoder(io.LimitReader(resp.Body, 64<<20)).Decode(&m); err != nil {
			return nil, fmt.Errorf(`GET %s: expected {"<dedup id>": <times processed>}: %w`, url, err)
		}
		return m, nil
	}
}
