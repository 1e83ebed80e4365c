package main

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

// TestEffectsOracleTakesNoProxy: with --allow-remote, the effects oracle
// ignores HTTP_PROXY as the deliveries do, rather than sending its GET to
// the proxy.
func TestEffectsOracleTakesNoProxy(t *testing.T) {
	var proxied atomic.Int32
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		proxied.Add(1)
		w.WriteHeader(http.StatusBadGateway)
	}))
	defer proxy.Close()
	oracle := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Write([]byte(`{"evt_1": 1}`))
	}))
	defer oracle.Close()
	t.Setenv("HTTP_PROXY", proxy.URL)
	t.Setenv("http_proxy", proxy.URL)
	t.Setenv("NO_PROXY", "")
	// A *.localhost name: Go's proxy rules pass 127.0.0.1 by, not this.
	u := strings.Replace(oracle.URL, "127.0.0.1", "effects.localhost", 1) + "/effects"
	got, err := effectsFromURL(u, true)(context.Background())
	if err != nil || got["evt_1"] != 1 {
		t.Errorf("the oracle answered %v, %v", got, err)
	}
	if n := proxied.Load(); n != 0 {
		t.Errorf("the oracle's request went to HTTP_PROXY %d times", n)
	}
}
