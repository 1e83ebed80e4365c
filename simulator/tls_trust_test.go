package simulator_test

import (
	"encoding/pem"
	"errors"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/retrysim/retrysim/policies/boundedfile"

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

// TestTrustFile: a CA file's certificate is trusted; a file with none is
// named in the error, a missing one says so, and one over MaxCAFile is
// refused before it is parsed, naming what it should have been.
func TestTrustFile(t *testing.T) {
	srv := httptest.NewTLSServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	defer srv.Close()
	dir := t.TempDir()
	good, junk, big := filepath.Join(dir, "ca.pem"), filepath.Join(dir, "junk.pem"), filepath.Join(dir, "big.pem")
	for path, data := range map[string][]byte{
		good: pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw}),
		junk: []byte("hello"),
		big:  make([]byte, simulator.MaxCAFile+1),
	} {
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	cfg, err := simulator.TrustFile(good)
	if err != nil {
		t.Fatal(err)
	}
	client := &http.Client{Transport: &http.Transport{TLSClientConfig: cfg}}
	resp, err := client.Get(srv.URL)
	if err != nil {
		t.Fatalf("the server the file vouches for was refused: %v", err)
	}
	resp.Body.Close()
	_, err = simulator.TrustFile(junk)
	if !errors.Is(err, simulator.ErrNoCertificate) || err.Error() != junk+" holds "+simulator.ErrNoCertificate.Error() {
		t.Errorf("no certificate: %v, want %q holds ErrNoCertificate", err, junk)
	}
	if _, err := simulator.TrustFile(filepath.Join(dir, "missing.pem")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing file: %v, want not-exist", err)
	}
	var tl *boundedfile.TooLargeError
	if _, err := simulator.TrustFile(big); !errors.As(err, &tl) || err.Error() != big+" is larger than 4 MiB: not a PEM certificate file" {
		t.Errorf("a file over the cap: %v", err)
	}
}
