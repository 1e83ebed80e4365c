package simulator

import (
	"context"
	"errors"
	"net"
	"sync/atomic"
	"testing"
	"time"
)

// TestGuardedDialLooksUpOnlyTheTarget: a name a redirect chose is refused
// without a DNS query; localhost and *.localhost connect to loopback
// without one; only the target's own name is looked up.
func TestGuardedDialLooksUpOnlyTheTarget(t *testing.T) {
	var lookups atomic.Int32
	r := &net.Resolver{PreferGo: true, Dial: func(context.Context, string, string) (net.Conn, error) {
		lookups.Add(1)
		return nil, errors.New("no DNS in tests")
	}}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	dial := GuardedDial(5*time.Second, false, r, "target.test", "app.localhost")
	ctx := context.Background()
	for _, host := range []string{"evil.example", "attacker-chosen.test.", "10.0.0.1", "192.0.2.7"} {
		if _, err := dial(ctx, "tcp", net.JoinHostPort(host, port)); !errors.Is(err, ErrRemoteTarget) {
			t.Errorf("%s: %v, want ErrRemoteTarget", host, err)
		}
	}
	if n := lookups.Load(); n != 0 {
		t.Errorf("refusing names made %d DNS queries, want none", n)
	}
	for _, host := range []string{"localhost", "localhost.", "app.localhost", "API.Localhost."} {
		c, err := dial(ctx, "tcp", net.JoinHostPort(host, port))
		if err != nil {
			t.Errorf("%s: %v", host, err)
			continue
		}
		c.Close()
	}
	if n := lookups.Load(); n != 0 {
		t.Errorf("localhost names made %d DNS queries, want none", n)
	}
	dial(ctx, "tcp", net.JoinHostPort("target.test", port))
	if lookups.Load() == 0 {
		t.Error("the target's own name was not looked up")
	}
}
