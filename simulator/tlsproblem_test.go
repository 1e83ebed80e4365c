package simulator_test

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/retrysim/retrysim/policies/policytest"
	"github.com/retrysim/retrysim/report"
	"github.com/retrysim/retrysim/simulator"
)

// A TLS handshake that fails says what failed (an authority this machine
// does not trust, a certificate for another name) instead of "nothing
// accepted a connection", and the report says how to fix it.
func TestTLSFailuresSayWhatFailed(t *testing.T) {
	srv := httptest.NewTLSServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	defer srv.Close()
	pool := x509.NewCertPool()
	pool.AddCert(srv.Certificate())
	port := srv.URL[strings.LastIndex(srv.URL, ":"):]
	for _, tc := range []struct {
		name string
		url  string
		tls  *tls.Config
		want simulator.TLSProblem
		says string
	}{
		{"an authority not trusted", srv.URL, nil, simulator.TLSUnknownAuthority, "signed by an authority this machine does not trust"},
		// The test certificate names 127.0.0.1 and example.com, not localhost.
		{"a certificate for another name", "https://localhost" + port, &tls.Config{RootCAs: pool}, simulator.TLSWrongName, "not for the host in the URL"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pol := policytest.Lookup(t, "github")
			var recs []simulator.Record
			if _, err := simulator.Run(context.Background(), simulator.Config{Policy: pol, URL: tc.url, TLS: tc.tls, Events: 1, Sink: simulator.Collect(&recs)}); err != nil {
				t.Fatal(err)
			}
			for _, r := range recs {
				if r.Kind == simulator.KindAttempt && r.TLS != tc.want {
					t.Fatalf("attempt %d: TLS problem %q (%s), want %q", r.Attempt, r.TLS, r.Error, tc.want)
				}
			}
			runs, err := report.Summarize(recs)
			if err != nil {
				t.Fatal(err)
			}
			var out bytes.Buffer
			if err := report.WriteText(&out, &report.Report{Runs: runs, Width: -1}); err != nil { // unwrapped: sentences whole
				t.Fatal(err)
			}
			for _, want := range []string{tc.says, "Config.TLS (RootCAs)", "Config.TLS (InsecureSkipVerify)"} {
				if !strings.Contains(out.String(), want) {
					t.Errorf("report lacks %q:\n%s", want, out.String())
				}
			}
			if strings.Contains(out.String(), "nothing accepted a connection") {
				t.Errorf("report blames the connection:\n%s", out.String())
			}
		})
	}
}
