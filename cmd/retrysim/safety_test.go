package main

import (
	"context"
	"encoding/pem"
	"errors"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/retrysim/retrysim/simulator"
)

// fakeDNS answers from a table and counts the look-ups, so that no test
// depends on DNS working (or not working) on the machine.
type fakeDNS struct {
	hosts   map[string][]string
	lookups atomic.Int32
}

func (f *fakeDNS) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	f.lookups.Add(1)
	addrs, ok := f.hosts[host]
	if !ok {
		return nil, errors.New("no such host")
	}
	out := make([]netip.Addr, len(addrs))
	for i, a := range addrs {
		out[i] = netip.MustParseAddr(a)
	}
	return out, nil
}

// useDNS returns a context whose commands resolve target names with
// hosts alone.
func useDNS(hosts map[string][]string) context.Context {
	return withResolver(context.Background(), &fakeDNS{hosts: hosts})
}

// TestRemoteTargetRefused: a target that is not on this machine is refused
// with exit 2 and a reason before anything runs, whether its name resolves
// elsewhere or does not resolve at all.
func TestRemoteTargetRefused(t *testing.T) {
	cases := []struct {
		name  string
		hosts map[string][]string
		args  []string
		says  []string
	}{
		{
			name:  "name resolving to another machine",
			hosts: map[string][]string{"example.com": {"93.184.215.14"}},
			args:  []string{"--url", "http://example.com/"},
			says:  []string{"--url", "example.com resolves to 93.184.215.14", "--allow-remote"},
		},
		{
			name:  "name that does not resolve",
			hosts: map[string][]string{},
			args:  []string{"--url", "http://example.com/"},
			says:  []string{"--url", "cannot resolve example.com", "--allow-remote"},
		},
		{
			name:  "name resolving to this machine and another",
			hosts: map[string][]string{"example.com": {"127.0.0.1", "2606:2800:21f:cb07:6820:80da:af6b:8b2c"}},
			args:  []string{"--url", "https://example.com:8443/hook"},
			says:  []string{"--url", "resolves to 2606:2800:21f:cb07:6820:80da:af6b:8b2c"},
		},
		{
			name: "address of another machine",
			args: []string{"--url", "http://192.0.2.1:8080/"},
			says: []string{"--url", "192.0.2.1", "--allow-remote"},
		},
		{
			name:  "effects oracle on another machine",
			hosts: map[string][]string{"example.com": {"93.184.215.14"}},
			args:  []string{"--url", "http://127.0.0.1:9/", "--effects-url", "http://example.com/effects"},
			says:  []string{"--effects-url", "example.com resolves to 93.184.215.14"},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"run", "--provider", "stripe", "--secret", "stripe=whsec_x1234567890"}, tc.args...)
			code, stdout, stderr := runCLIWith(t, useDNS(tc.hosts), t.TempDir(), args...)
			if code != exitBadInput {
				t.Fatalf("exit %d, want %d; stderr:\n%s", code, exitBadInput, stderr)
			}
			for _, s := range tc.says {
				if !strings.Contains(stderr, s) {
					t.Errorf("stderr does not say %q:\n%s", s, stderr)
				}
			}
			if stdout != "" {
				t.Errorf("something ran: stdout\n%s", stdout)
			}
			if n := strings.Count(strings.TrimSpace(stderr), "\n"); n != 0 {
				t.Errorf("want one line on stderr, got %d:\n%s", n+1, stderr)
			}
		})
	}
}

func TestRateCapDefaults(t *testing.T) {
	dns := map[string][]string{"staging.test": {"192.0.2.10"}, "localhost": {"127.0.0.1", "::1"}}
	cases := []struct {
		name   string
		url    string
		remote bool
		flag   string
		want   float64
	}{
		{name: "demo handler", want: 0},
		{name: "loopback address", url: "http://127.0.0.1:3000/", want: 0},
		{name: "localhost, remote allowed", url: "http://localhost:3000/", remote: true, want: 0},
		{name: "remote target", url: "https://staging.test/hook", remote: true, want: simulator.DefaultRemoteMaxRPS},
		{name: "remote address", url: "http://192.0.2.10/hook", remote: true, want: simulator.DefaultRemoteMaxRPS},
		{name: "remote target, cap given", url: "https://staging.test/hook", remote: true, flag: "50", want: 50},
		{name: "remote target, no cap asked for", url: "https://staging.test/hook", remote: true, flag: "0", want: 0},
		{name: "loopback, cap given", url: "http://127.0.0.1:3000/", flag: "2.5", want: 2.5},
		{name: "auto spelled out", url: "https://staging.test/hook", remote: true, flag: "AUTO", want: simulator.DefaultRemoteMaxRPS},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := &runFlags{url: tc.url, allowRemote: tc.remote, maxRPS: newMaxRPSFlag()}
			if tc.flag != "" {
				if err := f.maxRPS.Set(tc.flag); err != nil {
					t.Fatal(err)
				}
			}
			if got := f.rateCap(useDNS(dns)); got != tc.want {
				t.Fatalf("rate cap %g, want %g", got, tc.want)
			}
		})
	}
}

// TestTLSFlags runs against a loopback HTTPS server with a self-signed
// certificate: refused without --ca or --insecure, delivered with either.
func TestTLSFlags(t *testing.T) {
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	srv.Config.ErrorLog = log.New(io.Discard, "", 0) // refused handshakes are expected
	srv.StartTLS()
	t.Cleanup(srv.Close)
	dir := t.TempDir()
	caFile := filepath.Join(dir, "ca.pem")
	certPEM := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw})
	if err := os.WriteFile(caFile, certPEM, 0o600); err != nil {
		t.Fatal(err)
	}
	notPEM := filepath.Join(dir, "not.pem")
	if err := os.WriteFile(notPEM, []byte("hello"), 0o600); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		args []string
		code int
		says string
	}{
		{name: "untrusted certificate", code: exitOK, says: "connection_failed 32"},
		{name: "--ca FILE", args: []string{"--ca", caFile}, code: exitOK, says: "delivered 2/2"},
		{name: "--insecure", args: []string{"--insecure"}, code: exitOK, says: "delivered 2/2"},
		{name: "--ca with no certificate", args: []string{"--ca", notPEM}, code: exitBadInput, says: "--ca: " + notPEM + " holds no PEM certificate"},
		{name: "--ca missing", args: []string{"--ca", filepath.Join(dir, "missing.pem")}, code: exitBadInput, says: "--ca: open " + filepath.Join(dir, "missing.pem")},
		{name: "--ca and --insecure", args: []string{"--ca", caFile, "--insecure"}, code: exitBadInput, says: "--insecure and --ca: give one"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"run", "--provider", "stripe", "--scenario", "happy", "--events", "2",
				"--url", srv.URL + "/hook", "--secret", "stripe=whsec_tls_test", "--no-timeline"}, tc.args...)
			code, stdout, stderr := runCLI(t, t.TempDir(), args...)
			if code != tc.code {
				t.Fatalf("exit %d, want %d; stderr:\n%s", code, tc.code, stderr)
			}
			if !strings.Contains(stdout+stderr, tc.says) {
				t.Errorf("output does not say %q:\n%s\n%s", tc.says, stdout, stderr)
			}
		})
	}
}
