package simulator

import (
	"crypto/tls"
	"net/http"
	"time"
)

// clientOptions shape a guarded client.
type clientOptions struct {
	timeout     time.Duration
	connect     time.Duration
	allowRemote bool
	noKeepAlive bool // one request at a time, far apart: keep no idle connection
	tls         *tls.Config
	handler     http.Handler // in-process target instead of the network
	// pool, when set, sizes the keep-alive pool to the attempts in flight:
	// as many idle connections, and at most two each open at once (a
	// duplicated attempt sends two requests together).
	pool int
	// hosts are the host names the client may look up (the target's own,
	// checked by CheckTarget); see GuardedDial.
	hosts []string
}

// guardedClient builds every client retrysim sends with (the engine's,
// replay's and the effects oracle's): the given timeout as a real client
// timeout, no redirect followed by the client itself (exchange follows them
// as the provider does, see doFollowing), no proxy from the environment,
// and, unless allowRemote, a dialer that refuses every address that is not
// loopback, whatever name or redirect led there.
func guardedClient(o clientOptions) *http.Client {
	var rt http.RoundTripper
	if o.handler != nil {
		rt = &handlerTransport{h: o.handler}
	} else {
		connect := o.connect
		if connect == 0 {
			connect = o.timeout
		}
		tr := &http.Transport{
			Proxy:                  nil,
			DialContext:            GuardedDial(connect, o.allowRemote, nil, o.hosts...),
			TLSClientConfig:        o.tls,
			TLSHandshakeTimeout:    connect,
			MaxIdleConnsPerHost:    64,
			MaxConnsPerHost:        2 * o.pool,
			IdleConnTimeout:        90 * time.Second,
			DisableCompression:     true,
			DisableKeepAlives:      o.noKeepAlive,
			MaxResponseHeaderBytes: 1 << 20,
		}
		if o.pool > 0 {
			tr.MaxIdleConns, tr.MaxIdleConnsPerHost = o.pool, o.pool
		}
		rt = tr
	}
	return &http.Client{
		Transport: rt,
		Timeout:   o.timeout,
		CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse
		},
	}
}
