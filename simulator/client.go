package simulator

import (
	"crypto/tls"
	"net"
	"net/http"
	"time"
)

// clientOptions shape a guarded client.
type clientOptions struct {
	timeout     time.Duration
	connect     time.Duration
	follow      int // redirects followed
	allowRemote bool
	noKeepAlive bool // one request at a time, far apart: keep no idle connection
	tls         *tls.Config
	handler     http.Handler // in-process target instead of the network
	// pool, when set, sizes the keep-alive pool to the attempts in flight:
	// as many idle connections, and at most two each open at once (a
	// duplicated attempt sends two requests together).
	pool int
}

// guardedClient builds every client retrysim sends with (the engine's,
// replay's and the effects oracle's): the given timeout as a real client
// timeout, the redirect rule, no proxy from the environment, and, unless
// allowRemote, a dialer that refuses every address that is not loopback,
// whatever name or redirect led there.
func guardedClient(o clientOptions) *http.Client {
	var rt http.RoundTripper
	if o.handler != nil {
		rt = &handlerTransport{h: o.handler}
	} else {
		connect := o.connect
		if connect == 0 {
			connect = o.timeout
		}
		d := &net.Dialer{Timeout: connect, KeepAlive: 30 * time.Second}
		if !o.allowRemote {
			d.Control = loopbackOnly
		}
		tr := &http.Transport{
			Proxy:                  nil,
			DialContext:            d.DialContext,
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
		CheckRedirect: func(_ *http.Request, via []*http.Request) error {
			if len(via) > o.follow {
				return http.ErrUseLastResponse
			}
			return nil
		},
	}
}
