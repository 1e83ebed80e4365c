package capture_test

import (
	"bytes"
	"errors"
	"net/http"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/retrysim/retrysim/policies"
	"github.com/retrysim/retrysim/simulator/capture"
	"github.com/retrysim/retrysim/simulator/capture/capturetest"
)

// The same Stripe delivery saved three ways reads back as the same request:
// same method, URL, body byte for byte, signature and dedup id.
func TestParseCaptureFormatsAgree(t *testing.T) {
	want, err := capture.ParseRaw(capturetest.Bytes(t, "stripe.http"))
	if err != nil {
		t.Fatal(err)
	}
	stripe, _ := policies.WireFor("stripe")
	wantID, err := stripe.DedupID(want.Header, want.Body)
	if err != nil || !strings.HasPrefix(wantID, "evt_") {
		t.Fatalf("dedup id of the raw capture: %q, %v", wantID, err)
	}
	for _, tc := range []struct{ file, format string }{
		{"stripe.http", capture.FormatRawHTTP},
		{"stripe.har", capture.FormatHAR},
		{"stripe.curl", capture.FormatCurl},
	} {
		t.Run(tc.file, func(t *testing.T) {
			c, err := capture.Parse(capturetest.Bytes(t, tc.file), capture.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if c.Format != tc.format {
				t.Errorf("format %q, want %q", c.Format, tc.format)
			}
			if c.Method != "POST" || c.URL != "https://api.example.com/webhooks/stripe" {
				t.Errorf("request %s %s, want POST https://api.example.com/webhooks/stripe", c.Method, c.URL)
			}
			if !bytes.Equal(c.Body, want.Body) {
				t.Errorf("body differs:\n got %q\nwant %q", c.Body, want.Body)
			}
			for _, h := range []string{"Stripe-Signature", "Content-Type", "User-Agent", "Accept"} {
				if c.Header.Get(h) != want.Header.Get(h) || c.Header.Get(h) == "" {
					t.Errorf("%s = %q, want %q", h, c.Header.Get(h), want.Header.Get(h))
				}
			}
			for _, h := range []string{"Host", "Content-Length", ":authority"} {
				if _, ok := c.Header[http.CanonicalHeaderKey(h)]; ok {
					t.Errorf("connection header %s kept; a client sets it for each request", h)
				}
			}
			if id, _ := stripe.DedupID(c.Header, c.Body); id != wantID {
				t.Errorf("dedup id %q, want %q", id, wantID)
			}
		})
	}
}

func TestParseRawRequest(t *testing.T) {
	for _, tc := range []struct {
		name, in           string
		method, url, body  string
		header, headerWant string
		err                string
	}{
		{name: "LF line endings, no Content-Length: body to the end",
			in:     "POST /hook HTTP/1.1\nHost: localhost:3000\nX-GitHub-Delivery: abc\n\n{\"a\":1}",
			method: "POST", url: "http://localhost:3000/hook", body: `{"a":1}`, header: "X-Github-Delivery", headerWant: "abc"},
		{name: "Content-Length cuts the newline an editor added",
			in:     "POST /hook HTTP/1.1\r\nHost: example.com\r\nContent-Length: 2\r\n\r\nhi\n",
			method: "POST", url: "https://example.com/hook", body: "hi"},
		{name: "chunked body is decoded",
			in:     "POST /hook HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n",
			method: "POST", url: "http://127.0.0.1/hook", body: "abcde"},
		{name: "absolute-form target",
			in:     "POST https://shop.example/webhooks/shopify?x=1 HTTP/1.1\r\n\r\n{}",
			method: "POST", url: "https://shop.example/webhooks/shopify?x=1", body: "{}"},
		{name: "HTTP/2 pseudo-headers as devtools show them",
			in:     ":method: POST\n:authority: api.example.com\n:scheme: https\n:path: /webhooks/stripe\ncontent-type: application/json\n\n{}",
			method: "POST", url: "https://api.example.com/webhooks/stripe", body: "{}", header: "Content-Type", headerWant: "application/json"},
		{name: "no host: the path only",
			in:     "POST /webhooks/stripe HTTP/1.1\r\n\r\n{}",
			method: "POST", url: "/webhooks/stripe", body: "{}"},
		{name: "folded header line",
			in:     "POST /h HTTP/1.1\nX-Long: a\n  b\n\n",
			method: "POST", url: "/h", header: "X-Long", headerWant: "a b"},
		{name: "body shorter than Content-Length", in: "POST /h HTTP/1.1\r\nContent-Length: 10\r\n\r\nabc", err: "Content-Length says 10 bytes but the body has 3"},
		{name: "Content-Length past 2^32", in: "POST /h HTTP/1.1\r\nContent-Length: 5000000000\r\n\r\nabc", err: "Content-Length says 5000000000 bytes but the body has 3"},
		{name: "not a request line", in: "hello world, this is not HTTP", err: "is not a request line"},
		{name: "header without colon", in: "POST /h HTTP/1.1\nnot a header\n\n", err: "is not a header"},
		{name: "bad header name", in: "POST /h HTTP/1.1\nBad Name: x\n\n", err: "header name \"Bad Name\" is not valid"},
		{name: "gzip transfer coding", in: "POST /h HTTP/1.1\nTransfer-Encoding: gzip\n\nx", err: "not supported"},
		{name: "ftp URL", in: "POST ftp://x/y HTTP/1.1\n\n", err: "not an http(s) URL"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := capture.ParseRaw([]byte(tc.in))
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) || !errors.Is(err, capture.ErrUnreadable) {
					t.Fatalf("error %v, want ErrUnreadable containing %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if c.Method != tc.method || c.URL != tc.url || string(c.Body) != tc.body {
				t.Errorf("got %s %s %q, want %s %s %q", c.Method, c.URL, c.Body, tc.method, tc.url, tc.body)
			}
			if tc.header != "" && c.Header.Get(tc.header) != tc.headerWant {
				t.Errorf("%s = %q, want %q", tc.header, c.Header.Get(tc.header), tc.headerWant)
			}
		})
	}
}

func TestParseCurl(t *testing.T) {
	files := map[string]string{"body.json": "{\"a\":\n1}\n"}
	read := func(name string) ([]byte, error) {
		if b, ok := files[name]; ok {
			return []byte(b), nil
		}
		return nil, os.ErrNotExist
	}
	for _, tc := range []struct {
		name, in                string
		method, url, body, ctyp string
		header, headerWant      string
		err                     string
	}{
		{name: "Chrome's bash copy with $'…' body",
			in:     `curl 'http://127.0.0.1:3000/hook' -H 'x-github-delivery: d-1' --data-raw $'{"msg":"it\'s\\n"}' --compressed`,
			method: "POST", url: "http://127.0.0.1:3000/hook", body: `{"msg":"it's\n"}`, ctyp: "application/x-www-form-urlencoded", header: "X-Github-Delivery", headerWant: "d-1"},
		{name: "double quotes and a line continuation",
			in:     "curl -X PUT \\\n  -H \"Content-Type: application/json\" \\\n  -d \"{\\\"a\\\": 1}\" localhost:8080/x",
			method: "PUT", url: "http://localhost:8080/x", body: `{"a": 1}`, ctyp: "application/json"},
		{name: "-d @file strips newlines, --data-binary keeps them",
			in:     "curl -sS -d @body.json --data-binary @body.json https://h.example/x",
			method: "POST", url: "https://h.example/x", body: "{\"a\":1}&{\"a\":\n1}\n"},
		{name: "--json sets the content type",
			in:     `curl --json '{"k":1}' https://h.example/x`,
			method: "POST", url: "https://h.example/x", body: `{"k":1}`, ctyp: "application/json"},
		{name: "bundled short options and attached value",
			in:     `curl -sSLXPOST -H'X-A: 1' -A agent/1 https://h.example/x`,
			method: "POST", url: "https://h.example/x", header: "User-Agent", headerWant: "agent/1"},
		{name: "data-urlencode", in: `curl --data-urlencode 'text=a b&c' https://h.example/x`,
			method: "POST", url: "https://h.example/x", body: "text=a+b%26c"},
		{name: "-G moves data to the query", in: `curl -G -d a=1 -d b=2 https://h.example/x`,
			method: "GET", url: "https://h.example/x?a=1&b=2"},
		{name: "-G encodes what a URL cannot carry", in: `curl -G -d 'q=a b' -d $'c=\x7f\xe9' https://h.example/x`,
			method: "GET", url: "https://h.example/x?q=a%20b&c=%7F%E9"},
		{name: "a $ prompt in front", in: `$ curl https://h.example/x -d x`, method: "POST", url: "https://h.example/x", body: "x"},
		{name: "unterminated quote", in: `curl 'https://h.example/x`, err: "without closing quote"},
		{name: "a variable only a shell can expand", in: `curl -H "Authorization: Bearer $TOKEN" https://h.example/x`, err: "uses $TOKEN"},
		{name: "a command substitution", in: `curl -d "$(cat body.json)" https://h.example/x`, err: "command substitution"},
		{name: "a pipe after the command", in: `curl https://h.example/x -d a | jq .`, err: "more than one plain curl command"},
		{name: "a comment and an escaped dollar", in: `curl -d 'a=1' -H \$X:\ 1 https://h.example/x # saved by hand`,
			method: "POST", url: "https://h.example/x", body: "a=1", header: "$x", headerWant: "1"},
		{name: "multipart form", in: `curl -F a=@x https://h.example/x`, err: "multipart form"},
		{name: "two URLs", in: `curl https://a.example/ https://b.example/`, err: "more than one URL"},
		{name: "no URL", in: `curl -d x`, err: "names no URL"},
		{name: "unknown option", in: `curl --frobnicate https://a.example/`, err: "--frobnicate is not supported"},
		{name: "@file refused without a reader", in: `curl -d @missing.json https://a.example/`, err: "@missing.json"},
		{name: "not curl", in: `wget https://a.example/`, err: "starts with curl"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := capture.ParseCurl(tc.in, read)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) || !errors.Is(err, capture.ErrUnreadable) {
					t.Fatalf("error %v, want ErrUnreadable containing %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if c.Method != tc.method || c.URL != tc.url || string(c.Body) != tc.body {
				t.Errorf("got %s %s %q, want %s %s %q", c.Method, c.URL, c.Body, tc.method, tc.url, tc.body)
			}
			if tc.ctyp != "" && c.Header.Get("Content-Type") != tc.ctyp {
				t.Errorf("Content-Type %q, want %q", c.Header.Get("Content-Type"), tc.ctyp)
			}
			if tc.header != "" && c.Header.Get(tc.header) != tc.headerWant {
				t.Errorf("%s = %q, want %q", tc.header, c.Header.Get(tc.header), tc.headerWant)
			}
		})
	}
}

func TestParseHAR(t *testing.T) {
	har := capturetest.Bytes(t, "stripe.har")
	t.Run("the only POST entry is picked", func(t *testing.T) {
		c, err := capture.ParseHAR(har, 0)
		if err != nil || c.Method != "POST" {
			t.Fatalf("got %s, %v; want the POST entry", c.Method, err)
		}
	})
	t.Run("--entry picks another", func(t *testing.T) {
		c, err := capture.ParseHAR(har, 1)
		if err != nil || c.Method != "GET" || c.URL != "https://api.example.com/healthz" {
			t.Fatalf("got %s %s, %v; want GET …/healthz", c.Method, c.URL, err)
		}
	})
	for _, tc := range []struct {
		name, in string
		entry    int
		err      string
		body     string
	}{
		{name: "entry out of range", in: string(har), entry: 3, err: "entry 3 does not exist: the HAR file has 2 entries"},
		{name: "several POSTs are listed", entry: 0, err: "choose one with --entry N:\n  1: POST https://a.example/1\n  2: POST https://a.example/2",
			in: `{"log":{"entries":[{"request":{"method":"POST","url":"https://a.example/1"}},{"request":{"method":"POST","url":"https://a.example/2"}}]}}`},
		{name: "no entries", in: `{"log":{"entries":[]}}`, err: "no entries"},
		{name: "not JSON", in: `{"log":`, err: "not a HAR file"},
		{name: "base64 body", in: `{"log":{"entries":[{"request":{"method":"POST","url":"https://a.example/","postData":{"mimeType":"application/json","text":"e30=","encoding":"base64"}}}]}}`, body: "{}"},
		{name: "form params", in: `{"log":{"entries":[{"request":{"method":"POST","url":"https://a.example/","postData":{"mimeType":"application/x-www-form-urlencoded","params":[{"name":"To","value":"+1 415"},{"name":"A","value":"b"}]}}}]}}`, body: "To=%2B1+415&A=b"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := capture.ParseHAR([]byte(tc.in), tc.entry)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want one containing %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if string(c.Body) != tc.body {
				t.Errorf("body %q, want %q", c.Body, tc.body)
			}
		})
	}
}

// checkParsed is what every parser guarantees of a capture it accepts: a
// valid method, headers that can be sent, and a raw form that reads back as
// the same request.
func checkParsed(t *testing.T, c capture.Request) {
	t.Helper()
	if c.Method == "" || c.URL == "" {
		t.Fatalf("accepted a capture with method %q and URL %q", c.Method, c.URL)
	}
	if _, err := http.NewRequest(c.Method, "http://127.0.0.1/", nil); err != nil {
		t.Fatalf("accepted method %q that cannot be sent: %v", c.Method, err)
	}
	back, err := capture.ParseRaw(c.Raw())
	if err != nil {
		t.Fatalf("the raw form of an accepted capture does not read back: %v\n%q", err, c.Raw())
	}
	if back.Method != c.Method || !bytes.Equal(back.Body, c.Body) {
		t.Fatalf("raw round trip changed the request: %s %q → %s %q", c.Method, c.Body, back.Method, back.Body)
	}
	for k, vs := range c.Header {
		if !slices.Equal(back.Header[k], vs) {
			t.Fatalf("raw round trip changed header %s: %q → %q", k, vs, back.Header[k])
		}
	}
}

func FuzzParseRawRequest(f *testing.F) {
	for _, name := range []string{"stripe.http", "github.http", "slack.http"} {
		f.Add(capturetest.Bytes(f, name))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := capture.ParseRaw(data)
		if err != nil {
			if !errors.Is(err, capture.ErrUnreadable) {
				t.Fatalf("error not wrapping ErrCapture: %v", err)
			}
			return
		}
		checkParsed(t, c)
	})
}

func FuzzParseHAR(f *testing.F) {
	f.Add(capturetest.Bytes(f, "stripe.har"), 0)
	f.Fuzz(func(t *testing.T, data []byte, entry int) {
		c, err := capture.ParseHAR(data, entry)
		if err != nil {
			if !errors.Is(err, capture.ErrUnreadable) {
				t.Fatalf("error not wrapping ErrCapture: %v", err)
			}
			return
		}
		checkParsed(t, c)
	})
}

func FuzzParseCurl(f *testing.F) {
	f.Add(string(capturetest.Bytes(f, "stripe.curl")))
	f.Fuzz(func(t *testing.T, cmd string) {
		c, err := capture.ParseCurl(cmd, func(string) ([]byte, error) { return []byte("file\nbody"), nil })
		if err != nil {
			if !errors.Is(err, capture.ErrUnreadable) {
				t.Fatalf("error not wrapping ErrCapture: %v", err)
			}
			return
		}
		checkParsed(t, c)
	})
}

// Each @file of a curl command line is capped, and so is the body they
// make together: 40 × -d @20MiB is refused once the sum passes MaxSize,
// and no more files are read after that.
func TestCurlBodyCapped(t *testing.T) {
	big := make([]byte, 20<<20)
	reads := 0
	readFile := func(string) ([]byte, error) { reads++; return big, nil }
	cmd := "curl http://127.0.0.1:3000/hook" + strings.Repeat(" -d @body.json", 40)
	_, err := capture.ParseCurl(cmd, readFile)
	if !errors.Is(err, capture.ErrUnreadable) || !strings.Contains(err.Error(), "larger than 32 MiB") {
		t.Fatalf("got %v, want the body refused past 32 MiB", err)
	}
	if reads > 2 {
		t.Errorf("%d files read, want reading to stop once the body passed the cap", reads)
	}
	// Up to the cap, the body is whole.
	c, err := capture.ParseCurl("curl http://127.0.0.1:3000/hook --data-binary @a --data-binary @b", func(string) ([]byte, error) { return big[:10<<20], nil })
	if err != nil || len(c.Body) != 20<<20+1 {
		t.Fatalf("a 20 MiB body: %v, %d bytes", err, len(c.Body))
	}
}
