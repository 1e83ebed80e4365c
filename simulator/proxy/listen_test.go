package proxy

import (
	"strings"
	"testing"
)

// The proxy listens only on this machine.
func TestCheckListen(t *testing.T) {
	for _, c := range []struct{ addr, want string }{
		{"127.0.0.1:4242", ""},
		{"[::1]:4242", ""},
		{"localhost:4242", ""},
		{"0.0.0.0:4242", "not a loopback address"},
		{"192.168.1.10:4242", "not a loopback address"},
		{"127.0.0.1", "not HOST:PORT"},
		{"127.0.0.1:", "no valid port"},
	} {
		err := CheckListen(c.addr)
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("CheckListen(%q) = %v, want %q", c.addr, err, c.want)
		}
	}
}
