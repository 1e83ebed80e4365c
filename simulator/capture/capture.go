// Package capture reads a webhook delivery that was saved somewhere else, so
// that retrysim can send it again: a raw HTTP request (as a proxy or
// `nc -l` prints it), a HAR file (as browsers' network panels, Charles,
// Fiddler, mitmproxy and Proxyman export it), or a curl command line (as
// "Copy as cURL" and provider docs write it). Each parser returns a Request
// whose body is the delivery's exact bytes.
package capture

import (
	"bytes"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
)

// ErrUnreadable is returned, wrapped, for a captured request that cannot be
// read.
var ErrUnreadable = errors.New("cannot read the captured request")

// Request is one captured webhook delivery, as a replay sends it again.
type Request struct {
	// Method is the HTTP method, usually POST.
	Method string
	// URL is where the request went: absolute when the capture said so,
	// else only the path (then Replay needs a target URL).
	URL string
	// Header is the request's headers, without the ones a client sets for
	// each connection (Host, Content-Length, Connection, Transfer-Encoding).
	Header http.Header
	// Body is the payload, byte for byte.
	Body []byte
	// Format is the format the capture was read from: "http", "har" or
	// "curl".
	Format string
}

// Capture formats.
const (
	FormatRawHTTP = "http"
	FormatHAR     = "har"
	FormatCurl    = "curl"
)

// Options tune Parse.
type Options struct {
	// Entry picks the entry of a HAR file, from 1. 0 picks the only entry,
	// or the only POST entry; with several it is an error that lists them.
	Entry int
	// ReadFile reads the files a curl command line names with @file. Nil
	// refuses them.
	ReadFile func(name string) ([]byte, error)
}

// Parse reads a captured delivery in any of the three formats,
// telling them apart by their first bytes: a HAR file is JSON (it starts
// with "{"), a curl command line starts with "curl", anything else is read
// as a raw HTTP request ("POST /path HTTP/1.1", headers, a blank line, the
// body).
func Parse(data []byte, opts Options) (Request, error) {
	trimmed := bytes.TrimLeft(data, " \t\r\n\ufeff")
	switch {
	case bytes.HasPrefix(trimmed, []byte("{")):
		return ParseHAR(data, opts.Entry)
	case isCurl(trimmed):
		return ParseCurl(string(data), opts.ReadFile)
	default:
		return ParseRaw(data)
	}
}

func isCurl(b []byte) bool {
	b = bytes.TrimPrefix(b, []byte("$ "))
	word, _, _ := bytes.Cut(b, []byte(" "))
	word = bytes.TrimSpace(word)
	return bytes.Equal(word, []byte("curl")) || bytes.HasSuffix(word, []byte("/curl")) || bytes.EqualFold(word, []byte("curl.exe"))
}

// connectionHeaders are set by the client for each request and are not part
// of a delivery.
var connectionHeaders = []string{"Host", "Content-Length", "Connection", "Keep-Alive", "Transfer-Encoding", "Te", "Trailer", "Upgrade", "Proxy-Connection", "Expect"}

// addHeader adds one captured header after checking its name and value:
// names starting with ":" (HTTP/2 pseudo-headers) and connection headers are
// left out.
func addHeader(h http.Header, name, value string) error {
	if strings.HasPrefix(name, ":") {
		return nil
	}
	if !validHeaderName(name) {
		return fmt.Errorf("%w: header name %q is not valid", ErrUnreadable, name)
	}
	value = strings.Trim(value, " \t")
	if !validHeaderValue(value) {
		return fmt.Errorf("%w: header %s has a control character in its value", ErrUnreadable, name)
	}
	if slices.Contains(connectionHeaders, http.CanonicalHeaderKey(name)) {
		return nil
	}
	h.Add(name, value)
	return nil
}

// validHeaderName: a token (RFC 9110 5.1).
func validHeaderName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0 {
			continue
		}
		return false
	}
	return true
}

// validHeaderValue: no control characters but tab.
func validHeaderValue(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < ' ' && c != '\t' || c == 0x7f {
			return false
		}
	}
	return true
}

// cleanQuery percent-encodes the bytes a request line cannot carry in a
// query — space, control bytes, non-ASCII — as a browser does before it
// sends a URL, so a capture's URL is one an HTTP client can send and its raw
// form reads back.
func cleanQuery(q string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(q); i++ {
		c := q[i]
		if c > ' ' && c < 0x7f {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(hex[c>>4])
		b.WriteByte(hex[c&15])
	}
	return b.String()
}

// validMethod: a token.
func validMethod(s string) bool { return validHeaderName(s) }

// Raw returns the capture as a raw HTTP/1.1 request, the format
// ParseRaw reads: headers sorted by name, Content-Length set.
func (c *Request) Raw() []byte {
	var b bytes.Buffer
	target, host := c.URL, ""
	// Only an absolute URL has a host: a path-only capture may start with
	// "//" and must stay a path.
	if u, err := url.Parse(c.URL); err == nil && u.Scheme != "" && u.Host != "" {
		host, target = u.Host, u.RequestURI()
	}
	if target == "" {
		target = "/"
	}
	fmt.Fprintf(&b, "%s %s HTTP/1.1\r\n", c.Method, target)
	if host != "" {
		fmt.Fprintf(&b, "Host: %s\r\n", host)
	}
	names := make([]string, 0, len(c.Header))
	for k := range c.Header {
		names = append(names, k)
	}
	slices.Sort(names)
	for _, k := range names {
		for _, v := range c.Header[k] {
			fmt.Fprintf(&b, "%s: %s\r\n", k, v)
		}
	}
	fmt.Fprintf(&b, "Content-Length: %d\r\n\r\n", len(c.Body))
	b.Write(c.Body)
	return b.Bytes()
}
