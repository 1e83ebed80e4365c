package simulator

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"syscall"
)

// DisplayURL is rawURL as retrysim shows it (reports, errors): a password
// in it masked as url.URL.Redacted masks it (the request still sends it),
// as a password too short to be redacted would show, also when rawURL
// cannot be parsed (its userinfo is then what precedes the last "@" of
// what follows "://", up to the path).
func DisplayURL(rawURL string) string {
	if u, err := url.Parse(rawURL); err == nil {
		if u.User == nil {
			return rawURL
		}
		return u.Redacted()
	}
	scheme, rest, ok := strings.Cut(rawURL, "://")
	if !ok {
		return rawURL
	}
	authority := rest
	if i := strings.IndexAny(rest, "/?#"); i >= 0 {
		authority = rest[:i]
	}
	at := strings.LastIndex(authority, "@")
	if at < 0 {
		return rawURL
	}
	user, _, hasPassword := strings.Cut(authority[:at], ":")
	if !hasPassword {
		return rawURL
	}
	return scheme + "://" + user + ":xxxxx" + rest[at:]
}

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
	shown := DisplayURL(rawURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Hostname() == "" {
		return fmt.Errorf("%w: %q is not an http:// or https:// URL", ErrConfig, shown)
	}
	if p := u.Port(); p != "" {
		if n, err := strconv.Atoi(p); err != nil || n < 1 || n > 65535 {
			return fmt.Errorf("%w: %q: port %s is not a port (1..65535)", ErrConfig, shown, p)
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
			return &RemoteTargetError{Host: host}
		}
		return nil
	}
	addrs, err := r.LookupNetIP(ctx, "ip", host)
	if err != nil {
		return &RemoteTargetError{Host: host, Lookup: err}
	}
	if len(addrs) == 0 {
		return &RemoteTargetError{Host: host, NoAddress: true}
	}
	for _, a := range addrs {
		if !a.Unmap().IsLoopback() {
			return &RemoteTargetError{Host: host, Addr: a}
		}
	}
	return nil
}

// RemoteTargetError is why a target was refused as not on this machine,
// as figures; it wraps ErrRemoteTarget (and Lookup). Its Error names the
// setting that allows the target the Go way; Spell names it the caller's.
type RemoteTargetError struct {
	// Host is the URL's host, or the address a connection was refused to.
	Host string
	// Addr is the first address Host resolves to that is not loopback;
	// the zero Addr when Host is an address itself or did not resolve.
	Addr netip.Addr
	// Lookup is why Host could not be resolved (nil when it was).
	Lookup error
	// NoAddress says Host resolves to no address.
	NoAddress bool
	// Dial says a connection was refused when it was opened (a redirect,
	// or a name that resolved differently later), not the URL: the engine
	// writes it in the attempt's record, so it names no setting.
	Dial bool
}

func (e *RemoteTargetError) Error() string { return e.Spell(nil) }

// Unwrap returns ErrRemoteTarget and, when the host did not resolve, why.
func (e *RemoteTargetError) Unwrap() []error {
	if e.Lookup != nil {
		return []error{ErrRemoteTarget, e.Lookup}
	}
	return []error{ErrRemoteTarget}
}

// Spell says why the target was refused and, where a setting allows it,
// names that setting as sp spells it.
func (e *RemoteTargetError) Spell(sp Spelling) string {
	allow := sp.Of(SettingAllowRemote)
	switch {
	case e.Dial:
		// In an attempt's record, read by every report: no setting named.
		return fmt.Sprintf("%s: refusing to connect to %s (remote targets not allowed)", ErrRemoteTarget, e.Host)
	case e.Lookup != nil:
		return fmt.Sprintf("%s: cannot resolve %s, so cannot tell it is this machine (%s); use 127.0.0.1, or pass %s", ErrRemoteTarget, e.Host, e.Lookup, allow)
	case e.NoAddress:
		return fmt.Sprintf("%s: %s resolves to no address", ErrRemoteTarget, e.Host)
	case e.Addr.IsValid():
		return fmt.Sprintf("%s: %s resolves to %s (pass %s to send to another machine)", ErrRemoteTarget, e.Host, e.Addr, allow)
	}
	return fmt.Sprintf("%s: %s (pass %s to send to another machine)", ErrRemoteTarget, e.Host, allow)
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
		return &RemoteTargetError{Host: ap.Addr().String(), Dial: true}
	}
	return nil
}
