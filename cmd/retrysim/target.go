package main

import (
	"net/url"
	"time"

	"github.com/retrysim/retrysim/simulator"
	"github.com/retrysim/retrysim/simulator/demo"
)

// demoServer is the built-in demo handler served on a random loopback
// port; its temporary database goes on a second interrupt too.
type demoServer struct {
	*demo.Loopback
	unhook func()
}

func startDemo(mode demo.Mode, provider, secret string, opts ...demo.Option) (*demoServer, error) {
	l, err := demo.ServeLoopback(mode, provider, secret, opts...)
	if err != nil {
		return nil, err
	}
	return &demoServer{Loopback: l, unhook: onExitNow(func() { l.Handler.RemoveTemp() })}, nil
}

func (d *demoServer) close() {
	defer d.unhook()
	d.Close()
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
