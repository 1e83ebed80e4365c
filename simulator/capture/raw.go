package capture

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httputil"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
)

// MaxSize bounds a captured request (and each file a curl command line
// names with @): a reader need not read more than one byte past it.
const MaxSize = 32 << 20

// ParseRaw reads a raw HTTP request as tools save it (Burp, mitmproxy,
// Wireshark's "Follow HTTP stream", a request logged by the handler):
//
//	POST /webhooks/stripe HTTP/1.1
//	Host: example.com
//	Stripe-Signature: t=…,v1=…
//
//	{"id": "evt_…", …}
//
// Lines may end in CRLF or LF. The request target may be a path (the URL
// is then built from the Host header, https unless the host is loopback) or
// a whole URL. HTTP/2 pseudo-headers (:authority, :path, …) are understood.
// The body is what follows the blank line: exactly Content-Length bytes
// when the header is there (anything after them, such as the newline an
// editor adds, is left out), decoded when it is chunked, else everything to
// the end.
func ParseRaw(data []byte) (Request, error) {
	if len(data) > MaxSize {
		return Request{}, fmt.Errorf("%w: larger than %d MiB", ErrUnreadable, MaxSize>>20)
	}
	data = bytes.TrimLeft(data, " \t\r\n\ufeff")
	head, body, found := splitHead(data)
	if !found {
		// Headers with no blank line after them: a request with no body.
		head, body = data, nil
	}
	lines := strings.Split(strings.ReplaceAll(string(head), "\r\n", "\n"), "\n")
	c := Request{Header: http.Header{}, Format: FormatRawHTTP}
	var target, host, scheme, te, cl string
	first := 0
	if !strings.HasPrefix(lines[0], ":") { // else HTTP/2 pseudo-headers only
		var err error
		if c.Method, target, err = requestLine(lines[0]); err != nil {
			return Request{}, err
		}
		first = 1
	}
	for i := first; i < len(lines); i++ {
		line := lines[i]
		if line == "" {
			continue
		}
		for i+1 < len(lines) && lines[i+1] != "" && (lines[i+1][0] == ' ' || lines[i+1][0] == '\t') {
			i++
			line += " " + strings.TrimSpace(lines[i]) // obsolete line folding
		}
		name, value, ok := strings.Cut(line, ":")
		if name == "" && ok {
			// A pseudo-header: ":authority: example.com".
			pname, pvalue, ok2 := strings.Cut(value, ":")
			if !ok2 {
				return Request{}, fmt.Errorf("%w: line %d: %q is not a header", ErrUnreadable, i+1, line)
			}
			pvalue = strings.TrimSpace(pvalue)
			switch strings.ToLower(pname) {
			case "authority":
				host = pvalue
			case "scheme":
				scheme = pvalue
			case "path":
				target = pvalue
			case "method":
				c.Method = pvalue
			}
			continue
		}
		if !ok {
			return Request{}, fmt.Errorf("%w: line %d: %q is not a header (Name: value)", ErrUnreadable, i+1, line)
		}
		value = strings.TrimSpace(value)
		switch http.CanonicalHeaderKey(name) {
		case "Host":
			if host == "" {
				host = value
			}
		case "Transfer-Encoding":
			te = strings.ToLower(value)
		case "Content-Length":
			cl = value
		}
		if err := addHeader(c.Header, name, value); err != nil {
			return Request{}, fmt.Errorf("line %d: %w", i+1, err)
		}
	}
	if !validMethod(c.Method) {
		return Request{}, fmt.Errorf("%w: method %q is not valid", ErrUnreadable, c.Method)
	}
	var err error
	if c.URL, err = captureURL(target, host, scheme); err != nil {
		return Request{}, err
	}
	if c.Body, err = rawBody(body, te, cl); err != nil {
		return Request{}, err
	}
	return c, nil
}

// splitHead splits at the first blank line (CRLF CRLF or LF LF).
func splitHead(data []byte) (head, body []byte, found bool) {
	crlf := bytes.Index(data, []byte("\r\n\r\n"))
	lf := bytes.Index(data, []byte("\n\n"))
	switch {
	case crlf >= 0 && (lf < 0 || crlf < lf):
		return data[:crlf], data[crlf+4:], true
	case lf >= 0:
		return data[:lf], data[lf+2:], true
	}
	return data, nil, false
}

// requestLine reads "METHOD target [HTTP/x.y]".
func requestLine(line string) (method, target string, err error) {
	// The line is not quoted: a file that is not a capture (an .env, say)
	// may hold secrets on its first line.
	fields := strings.Fields(line)
	if len(fields) < 2 || len(fields) > 3 {
		return "", "", fmt.Errorf("%w: the first line (%s) is not a request line (METHOD /path HTTP/1.1)", ErrUnreadable, counted(int64(len(fields)), "word", "words"))
	}
	if len(fields) == 3 && !strings.HasPrefix(fields[2], "HTTP/") {
		return "", "", fmt.Errorf("%w: the first line does not end in HTTP/1.1, so it is not a request line (METHOD /path HTTP/1.1)", ErrUnreadable)
	}
	return fields[0], fields[1], nil
}

// captureURL builds the capture's URL from the request target, the host and
// the scheme.
func captureURL(target, host, scheme string) (string, error) {
	if target != "" && !strings.HasPrefix(target, "/") {
		u, err := url.Parse(target)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return "", fmt.Errorf("%w: request target %q is not an http(s) URL", ErrUnreadable, truncate(target, 80))
		}
		u.RawQuery = cleanQuery(u.RawQuery)
		return u.String(), nil
	}
	if target == "" {
		return "", fmt.Errorf("%w: no request line and no :path", ErrUnreadable)
	}
	if _, err := url.ParseRequestURI(target); err != nil {
		return "", fmt.Errorf("%w: request target %q: %w", ErrUnreadable, truncate(target, 80), err)
	}
	if host == "" {
		return target, nil
	}
	if scheme == "" {
		scheme = "https"
		if isLoopbackHost(host) {
			scheme = "http"
		}
	}
	u, err := url.Parse(scheme + "://" + host + target)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return "", fmt.Errorf("%w: host %q and path %q do not make a URL", ErrUnreadable, truncate(host, 80), truncate(target, 80))
	}
	u.RawQuery = cleanQuery(u.RawQuery)
	return u.String(), nil
}

func isLoopbackHost(hostport string) bool {
	h := hostport
	if hh, _, err := net.SplitHostPort(hostport); err == nil {
		h = hh
	}
	if strings.EqualFold(h, "localhost") {
		return true
	}
	ip, err := netip.ParseAddr(strings.Trim(h, "[]"))
	return err == nil && ip.IsLoopback()
}

// rawBody takes the body after the blank line as the headers describe it.
func rawBody(body []byte, te, cl string) ([]byte, error) {
	switch {
	case te == "chunked":
		out, err := io.ReadAll(io.LimitReader(httputil.NewChunkedReader(bufio.NewReader(bytes.NewReader(body))), MaxSize))
		if err != nil {
			return nil, fmt.Errorf("%w: the chunked body does not decode: %w", ErrUnreadable, err)
		}
		return out, nil
	case te != "":
		return nil, fmt.Errorf("%w: Transfer-Encoding %q is not supported (only chunked)", ErrUnreadable, te)
	case cl != "":
		n, err := strconv.ParseInt(cl, 10, 64)
		if err != nil || n < 0 {
			return nil, fmt.Errorf("%w: Content-Length %q is not a number", ErrUnreadable, truncate(cl, 20))
		}
		if n > int64(len(body)) {
			return nil, fmt.Errorf("%w: Content-Length says %s but the body has %d (was the file cut short?)", ErrUnreadable, counted(n, "byte", "bytes"), len(body))
		}
		return bytes.Clone(body[:n]), nil
	}
	return bytes.Clone(body), nil
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
