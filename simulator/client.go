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
}

// guardedClient builds the client that replay and the effects oracle send
// with: the given timeout, the redirect rule, no proxy from the environment,
// and, unless allowRemote, a dialer that refuses every address that is not
// loopback, whatever name or redirect led there.
func guardedClient(o clientOptions) *http.Client {
	var rt http.RoundTripper
	if o.handler != nil {
		rt = handlerTransport{o.handler}
	} else {
		connect := o.connect
		if connect == 0 {
			connect = o.timeout
		}
		d := &net.Dialer{Timeout: connect, KeepAlive: 30 * time.Second}
		if !o.allowRemote {
			d.Control = loopbackOnly
		}
		rt = &http.Transport{
			Proxy:                  nil,
			DialContext:            d.DialContext,
			TLSClientConfig:        o.tls,
			TLSHandshakeTimeout:    connect,
			MaxIdleConnsPerHost:    64,
			IdleConnTimeout:        90 * time.Second,
			DisableCompression:     true,
			DisableKeepAlives:      o.noKeepAlive,
			MaxResponseHeaderBytes: 1 << 20,
		}
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
