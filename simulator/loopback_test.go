package simulator

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

// newLoopback serves h on 127.0.0.1 for the test and returns its URL.
func newLoopback(t *testing.T, h http.Handler) string {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv.URL
}
