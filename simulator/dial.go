package simulator

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"strings"
	"time"
)

// LoopbackName reports whether host is loopback by its name alone:
// localhost or a name under .localhost (RFC 6761), with or without the
// final dot. Such a name is never looked up.
func LoopbackName(host string) bool {
	h := strings.ToLower(strings.TrimSuffix(host, "."))
	return h == "localhost" || strings.HasSuffix(h, ".localhost")
}

// DialFunc is the shape of net.Dialer.DialContext.
type DialFunc func(ctx context.Context, network, address string) (net.Conn, error)

// GuardedDial returns the dial function every connection retrysim makes
// goes through (the engine's, replay's, the effects oracle's and the
// --exec readiness probe's). localhost and *.localhost are dialled at
// 127.0.0.1, then ::1, without a lookup. Unless allowRemote:
//
//   - an IP address is dialled only when it is loopback;
//   - a name among names (the target's own, which the user chose and
//     CheckTarget resolved) is looked up with r (nil for the system's
//     resolver), and each address it resolves to is checked again as it
//     is connected to, so a name that answers loopback first and another
//     address later is still refused;
//   - any other name (one a redirect chose, say) is refused without a
//     lookup, so a handler cannot make retrysim ask DNS for names of its
//     choosing.
//
// The check runs after the socket is made and before it connects, so
// nothing is sent to a refused address.
func GuardedDial(timeout time.Duration, allowRemote bool, r *net.Resolver, names ...string) DialFunc {
	d := &net.Dialer{Timeout: timeout, KeepAlive: 30 * time.Second, Resolver: r}
	if !allowRemote {
		d.Control = loopbackOnly
	}
	known := map[string]bool{}
	for _, n := range names {
		known[strings.ToLower(n)] = true
	}
	return func(ctx context.Context, network, address string) (net.Conn, error) {
		host, port, err := net.SplitHostPort(address)
		if err != nil {
			return nil, err
		}
		if _, err := netip.ParseAddr(host); err == nil || (!LoopbackName(host) && (allowRemote || known[strings.ToLower(host)])) {
			return d.DialContext(ctx, network, address)
		}
		if LoopbackName(host) {
			c, err := d.DialContext(ctx, network, net.JoinHostPort("127.0.0.1", port))
			if err != nil && !errors.Is(err, ErrRemoteTarget) {
				if c6, err6 := d.DialContext(ctx, network, net.JoinHostPort("::1", port)); err6 == nil {
					return c6, nil
				}
			}
			return c, err
		}
		return nil, &net.OpError{Op: "dial", Net: network, Err: fmt.Errorf("%w: refusing to look up %s: only the target's own name is looked up, and localhost, unless remote targets are allowed", ErrRemoteTarget, host)}
	}
}

// hostOf is rawURL's host name, or "" when it has none.
func hostOf(rawURL string) string {
	u, err := url.Parse(rawURL)
	if err != nil {
		return ""
	}
	return u.Hostname()
}
