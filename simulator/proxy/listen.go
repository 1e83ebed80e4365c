package proxy

import (
	"fmt"
	"net"
	"net/netip"
	"strings"
)

// CheckListen accepts only a loopback HOST:PORT: the tools that feed the
// proxy run on this machine, and nothing else should reach it.
func CheckListen(addr string) error {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("%q is not HOST:PORT", addr)
	}
	if _, err := net.LookupPort("tcp", port); err != nil || port == "" {
		return fmt.Errorf("%q has no valid port", addr)
	}
	if ip, err := netip.ParseAddr(host); (err != nil || !ip.Unmap().IsLoopback()) && !strings.EqualFold(host, "localhost") {
		return fmt.Errorf("%s is not a loopback address: the proxy listens only on this machine (127.0.0.1, ::1, localhost)", host)
	}
	return nil
}
