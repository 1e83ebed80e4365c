package simulator_test

import (
	"encoding/pem"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/retrysim/retrysim/simulator"
)

// TestTrustPEM: a self-signed server is reached once its certificate is
// trusted; data with no certificate is refused.
func TestTrustPEM(t *testing.T) {
	srv := httptest.NewTLSServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	defer srv.Close()
	cfg, err := simulator.TrustPEM(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw}))
	if err != nil {
		t.Fatal(err)
	}
	client := &http.Client{Transport: &http.Transport{TLSClientConfig: cfg}}
	resp, err := client.Get(srv.URL)
	if err != nil {
		t.Fatalf("the trusted server was refused: %v", err)
	}
	resp.Body.Close()
	if _, err := simulator.TrustPEM([]byte("hello")); !errors.Is(err, simulator.ErrNoCertificate) {
		t.Errorf("no certificate: %v, want ErrNoCertificate", err)
	}
}
