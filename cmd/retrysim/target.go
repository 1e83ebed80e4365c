package main

import (
	"github.com/retrysim/retrysim/simulator/demo"
	"github.com/retrysim/retrysim/simulator/interrupt"
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
	return &demoServer{Loopback: l, unhook: interrupt.OnExitNow(func() { l.Handler.RemoveTemp() })}, nil
}

func (d *demoServer) close() {
	defer d.unhook()
	d.Close()
}
