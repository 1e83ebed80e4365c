package simulator

import (
	"context"
	"errors"
	"net/netip"
	"strings"
	"testing"
)

// fakeResolver answers from a table, so that no test depends on DNS.
type fakeResolver map[string][]string

func (f fakeResolver) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	addrs, ok := f[host]
	if !ok {
		return nil, errors.New("no such host")
	}
	out := make([]netip.Addr, len(addrs))
	for i, a := range addrs {
		out[i] = netip.MustParseAddr(a)
	}
	return out, nil
}

func TestCheckTarget(t *testing.T) {
	res := fakeResolver{
		"localhost":      {"127.0.0.1", "::1"},
		"example.com":    {"93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c"},
		"half.test":      {"127.0.0.1", "10.0.0.8"},
		"rebind.test":    {"::ffff:127.0.0.1"},
		"nowhere.test":   {},
		"staging.test":   {"192.0.2.10"},
		"loopback2.test": {"127.8.9.10"},
	}
	cases := []struct {
		url    string
		remote bool
		want   error  // nil, ErrRemoteTarget or ErrConfig
		says   string // a phrase the error must contain
	}{
		{url: "http://127.0.0.1:3000/webhooks"},
		{url: "http://127.255.0.1/"},
		{url: "https://[::1]:8443/hook"},
		{url: "http://[::ffff:127.0.0.1]:80/"},
		{url: "http://localhost:3000/"},
		{url: "http://localhost.:3000/"},
		{url: "http://app.localhost:3000/"},
		{url: "http://loopback2.test/"},
		{url: "http://rebind.test/"},
		{url: "http://example.com/", want: ErrRemoteTarget, says: "example.com resolves to 93.184.215.14 (pass Config.AllowRemote"},
		{url: "http://half.test/", want: ErrRemoteTarget, says: "resolves to 10.0.0.8"},
		{url: "http://unknown.test/", want: ErrRemoteTarget, says: "cannot resolve unknown.test"},
		{url: "http://nowhere.test/", want: ErrRemoteTarget, says: "resolves to no address"},
		{url: "http://192.0.2.1/", want: ErrRemoteTarget, says: "192.0.2.1"},
		{url: "http://[2001:db8::1]/", want: ErrRemoteTarget, says: "2001:db8::1"},
		{url: "http://[::ffff:192.0.2.1]/", want: ErrRemoteTarget, says: "::ffff:192.0.2.1"},
		{url: "http://0.0.0.0:3000/", want: ErrRemoteTarget, says: "0.0.0.0"},
		{url: "http://example.com/", remote: true},
		{url: "https://staging.test/hook", remote: true},
		{url: "ftp://127.0.0.1/", want: ErrConfig, says: `"ftp://127.0.0.1/" is not an http`},
		// A password is masked where the URL is quoted: one under
		// redact.MinLength would show as it is.
		{url: "ftp://u:pw12@127.0.0.1/", want: ErrConfig, says: `"ftp://u:xxxxx@127.0.0.1/" is not an http`},
		{url: "http://u:pw12@127.0.0.1:99999/", want: ErrConfig, says: `"http://u:xxxxx@127.0.0.1:99999/": port 99999`},
		// Also in a URL that cannot be parsed.
		{url: "http://u:pw12@[::1/hook", want: ErrConfig, says: `"http://u:xxxxx@[::1/hook" is not an http`},
		{url: "http://u@[::1/hook", want: ErrConfig, says: `"http://u@[::1/hook" is not an http`},
		{url: "127.0.0.1:3000", want: ErrConfig},
		{url: "http:///nohost", want: ErrConfig},
		{url: "http://[::1/", want: ErrConfig},
		{url: "http://127.0.0.1:99999/x", want: ErrConfig, says: "port 99999 is not a port (1..65535)"},
		{url: "http://127.0.0.1:0/x", want: ErrConfig, says: "port 0 is not a port"},
		{url: "http://example.com:65536/", remote: true, want: ErrConfig, says: "port 65536"},
		{url: "http://127.0.0.1:65535/"},
	}
	for _, tc := range cases {
		t.Run(tc.url, func(t *testing.T) {
			err := CheckTargetWith(context.Background(), res, tc.url, tc.remote)
			if tc.want == nil {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			if !errors.Is(err, tc.want) {
				t.Fatalf("error %v, want %v", err, tc.want)
			}
			if !strings.Contains(err.Error(), tc.says) {
				t.Errorf("error %q does not say %q", err, tc.says)
			}
		})
	}
}

func TestLoopbackOnlyDialControl(t *testing.T) {
	cases := []struct {
		addr string
		ok   bool
	}{
		{"127.0.0.1:80", true},
		{"127.3.2.1:8080", true},
		{"[::1]:443", true},
		{"[::ffff:127.0.0.1]:80", true},
		{"192.0.2.1:80", false},
		{"10.0.0.1:80", false},
		{"0.0.0.0:80", false},
		{"[::]:80", false},
		{"[fe80::1%eth0]:80", false},
		{"[::ffff:192.0.2.1]:80", false},
		{"not-an-address", false},
	}
	for _, tc := range cases {
		t.Run(tc.addr, func(t *testing.T) {
			err := loopbackOnly("tcp", tc.addr, nil)
			if tc.ok != (err == nil) {
				t.Fatalf("loopbackOnly(%s) = %v, want allowed %v", tc.addr, err, tc.ok)
			}
			if err != nil && !errors.Is(err, ErrRemoteTarget) {
				t.Errorf("error %v is not ErrRemoteTarget", err)
			}
		})
	}
}

// A URL's password is masked where it is shown, whether or not the URL
// parses; a URL without one is shown as it is.
func TestDisplayURL(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"http://alice:s3cret-password@127.0.0.1:8080/hook", "http://alice:xxxxx@127.0.0.1:8080/hook"},
		{"http://u:pw12@[::1/hook", "http://u:xxxxx@[::1/hook"},
		{"http://alice@127.0.0.1/hook", "http://alice@127.0.0.1/hook"},
		{"http://127.0.0.1/hook", "http://127.0.0.1/hook"},
	} {
		if got := DisplayURL(c.in); got != c.want {
			t.Errorf("DisplayURL(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
