package simulator

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"strconv"
	"syscall"
)

// ErrRemoteTarget is returned, wrapped, when a target is not on this machine
// and remote targets were not allowed.
var ErrRemoteTarget = errors.New("target is not a loopback address")

// Resolver looks up the addresses of a host name. *net.Resolver satisfies
// it; tests give a fake so that no check depends on DNS.
type Resolver interface {
	LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error)
}

var _ Resolver = (*net.Resolver)(nil)

// CheckTarget refuses a URL whose host is not loopback (127.0.0.0/8, ::1, or
// a name that resolves only to those), unless allowRemote is set. Names are
// resolved with net.DefaultResolver; a name that does not resolve is
// refused too. The engine checks every connection it opens as well,
// redirects included, so a name that resolves differently later is still
// caught.
func CheckTarget(ctx context.Context, rawURL string, allowRemote bool) error {
	return CheckTargetWith(ctx, net.DefaultResolver, rawURL, allowRemote)
}

// CheckTargetWith is CheckTarget with the resolver given.
func CheckTargetWith(ctx context.Context, r Resolver, rawURL string, allowRemote bool) error {
	u, err := url.Parse(rawURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Hostname() == "" {
		return fmt.Errorf("%w: %q is not an http:// or https:// URL", ErrConfig, rawURL)
	}
	if p := u.Port(); p != "" {
		if n, err := strconv.Atoi(p); err != nil || n < 1 || n > 65535 {
			return fmt.Errorf("%w: %q: port %s is not a port (1..65535)", ErrConfig, rawURL, p)
		}
	}
	if allowRemote {
		return nil
	}
	host := u.Hostname()
	if LoopbackName(host) {
		return nil // localhost and *.localhost: loopback by name, never looked up
	}
	if ip, err := netip.ParseAddr(host); err == nil {
		if !ip.Unmap().IsLoopback() {
			return fmt.Errorf("%w: %s (pass --allow-remote to send to another machine)", ErrRemoteTarget, host)
		}
		return nil
	}
	addrs, err := r.LookupNetIP(ctx, "ip", host)
	if err != nil {
		return fmt.Errorf("%w: cannot resolve %s, so cannot tell it is this machine (%w); use 127.0.0.1, or pass --allow-remote", ErrRemoteTarget, host, err)
	}
	if len(addrs) == 0 {
		return fmt.Errorf("%w: %s resolves to no address", ErrRemoteTarget, host)
	}
	for _, a := range addrs {
		if !a.Unmap().IsLoopback() {
			return fmt.Errorf("%w: %s resolves to %s (pass --allow-remote to send to another machine)", ErrRemoteTarget, host, a)
		}
	}
	return nil
}

// loopbackOnly is a net.Dialer Control that refuses any connection to an
// address that is not loopback, whatever name or redirect led there. It runs
// after the socket is made and before it connects, so nothing is sent.
func loopbackOnly(_, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return fmt.Errorf("%w: %s", ErrRemoteTarget, address)
	}
	if !ap.Addr().Unmap().IsLoopback() {
		return fmt.Errorf("%w: refusing to connect to %s (pass --allow-remote to send to another machine)", ErrRemoteTarget, ap.Addr())
	}
	return nil
}
