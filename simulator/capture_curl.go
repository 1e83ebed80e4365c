package simulator

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"
)

// ParseCurl reads a curl command line, as browsers' "Copy as cURL (bash)",
// provider dashboards and API docs write it: -X, -H, -d / --data /
// --data-raw / --data-binary / --data-urlencode / --json (joined with "&"
// when repeated, as curl does), -A, -e, -b, -u, --url, and the common
// options that do not change the request (-s, -k, -L, --compressed, -o …).
// Quoting follows the shell: '…', "…", $'…', backslashes and line
// continuations. readFile reads @file arguments; nil refuses them.
func ParseCurl(cmdline string, readFile func(string) ([]byte, error)) (Capture, error) {
	if len(cmdline) > maxCapture {
		return Capture{}, fmt.Errorf("%w: larger than %d MiB", ErrCapture, maxCapture>>20)
	}
	args, err := shellWords(cmdline)
	if err != nil {
		return Capture{}, err
	}
	if len(args) > 0 && args[0] == "$" {
		args = args[1:]
	}
	if len(args) == 0 || !isCurl([]byte(args[0])) {
		return Capture{}, fmt.Errorf("%w: a curl command line starts with curl", ErrCapture)
	}
	p := curlParse{c: Capture{Header: http.Header{}, Format: FormatCurl}, readFile: readFile}
	if err := p.parse(args[1:]); err != nil {
		return Capture{}, err
	}
	return p.finish()
}

type curlParse struct {
	c        Capture
	method   string
	rawURL   string
	data     [][]byte
	json     bool
	get      bool
	readFile func(string) ([]byte, error)
}

// Options that take an argument and do not change the request.
var curlIgnoredWithArg = map[string]bool{
	"-o": true, "--output": true, "-m": true, "--max-time": true, "--connect-timeout": true,
	"--retry": true, "--retry-delay": true, "--retry-max-time": true, "-w": true, "--write-out": true,
	"--resolve": true, "--connect-to": true, "--cacert": true, "--capath": true, "-E": true, "--cert": true,
	"--key": true, "--cert-type": true, "--key-type": true, "-x": true, "--proxy": true, "--limit-rate": true,
	"-D": true, "--dump-header": true, "--trace": true, "--trace-ascii": true, "-c": true, "--cookie-jar": true,
	"--interface": true, "--max-redirs": true, "-y": true, "--speed-time": true, "-Y": true, "--speed-limit": true,
	"--proto": true, "--proto-redir": true, "--ciphers": true, "--expect100-timeout": true,
}

// Options without an argument that do not change the request.
var curlIgnoredFlags = map[string]bool{
	"-k": true, "--insecure": true, "-s": true, "--silent": true, "-S": true, "--show-error": true,
	"-v": true, "--verbose": true, "-i": true, "--include": true, "-L": true, "--location": true,
	"--compressed": true, "-N": true, "--no-buffer": true, "--http1.1": true, "--http1.0": true, "--http2": true,
	"--http2-prior-knowledge": true, "-f": true, "--fail": true, "--fail-with-body": true, "-g": true,
	"--globoff": true, "-#": true, "--progress-bar": true, "--no-progress-meter": true, "-q": true,
	"--disable": true, "--no-keepalive": true, "--tcp-nodelay": true, "--location-trusted": true,
	"-0": true, "-1": true, "-2": true, "-3": true, "-4": true, "-6": true, "--ipv4": true, "--ipv6": true,
	"--raw": true, "--tr-encoding": true, "--path-as-is": true, "-Z": true, "--parallel": true,
}

// Options that take an argument and shape the request.
var curlWithArg = map[string]bool{
	"-X": true, "--request": true, "-H": true, "--header": true, "-d": true, "--data": true,
	"--data-ascii": true, "--data-raw": true, "--data-binary": true, "--data-urlencode": true,
	"--json": true, "-A": true, "--user-agent": true, "-e": true, "--referer": true, "-b": true,
	"--cookie": true, "-u": true, "--user": true, "--url": true, "-F": true, "--form": true,
	"--form-string": true, "-T": true, "--upload-file": true,
}

func (p *curlParse) parse(args []string) error {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			for _, u := range args[i+1:] {
				if err := p.setURL(u); err != nil {
					return err
				}
			}
			return nil
		case a == "-G" || a == "--get":
			p.get = true
		case strings.HasPrefix(a, "--"):
			if curlIgnoredFlags[a] || strings.HasPrefix(a, "--no-") {
				continue
			}
			if curlWithArg[a] || curlIgnoredWithArg[a] {
				if i+1 >= len(args) {
					return fmt.Errorf("%w: curl option %s needs a value", ErrCapture, a)
				}
				i++
				if err := p.option(a, args[i]); err != nil {
					return err
				}
				continue
			}
			return fmt.Errorf("%w: curl option %s is not supported here; save the request as a raw HTTP file or a HAR file instead", ErrCapture, truncate(a, 40))
		case strings.HasPrefix(a, "-") && len(a) > 1:
			// Short options, perhaps bundled (-sSL) or with the value
			// attached (-XPOST).
			for j := 1; j < len(a); j++ {
				opt := "-" + a[j:j+1]
				if curlIgnoredFlags[opt] {
					continue
				}
				if opt == "-G" {
					p.get = true
					continue
				}
				if !curlWithArg[opt] && !curlIgnoredWithArg[opt] {
					return fmt.Errorf("%w: curl option %s (in %q) is not supported here; save the request as a raw HTTP file or a HAR file instead", ErrCapture, opt, truncate(a, 40))
				}
				val := a[j+1:]
				if val == "" {
					if i+1 >= len(args) {
						return fmt.Errorf("%w: curl option %s needs a value", ErrCapture, opt)
					}
					i++
					val = args[i]
				}
				if err := p.option(opt, val); err != nil {
					return err
				}
				break
			}
		default:
			if err := p.setURL(a); err != nil {
				return err
			}
		}
	}
	return nil
}

func (p *curlParse) setURL(u string) error {
	if p.rawURL != "" {
		return fmt.Errorf("%w: the command names more than one URL (%s and %s); keep the delivery's", ErrCapture, truncate(p.rawURL, 60), truncate(u, 60))
	}
	p.rawURL = u
	return nil
}

func (p *curlParse) option(opt, val string) error {
	if curlIgnoredWithArg[opt] {
		return nil
	}
	switch opt {
	case "-X", "--request":
		p.method = val
	case "-H", "--header":
		return p.header(val)
	case "-d", "--data", "--data-ascii":
		b, err := p.dataArg(val, true)
		if err != nil {
			return err
		}
		p.data = append(p.data, b)
	case "--data-binary":
		b, err := p.dataArg(val, false)
		if err != nil {
			return err
		}
		p.data = append(p.data, b)
	case "--json":
		b, err := p.dataArg(val, false)
		if err != nil {
			return err
		}
		p.data = append(p.data, b)
		p.json = true
	case "--data-raw":
		p.data = append(p.data, []byte(val))
	case "--data-urlencode":
		b, err := p.urlencodeArg(val)
		if err != nil {
			return err
		}
		p.data = append(p.data, b)
	case "-A", "--user-agent":
		return addHeader(p.c.Header, "User-Agent", val)
	case "-e", "--referer":
		return addHeader(p.c.Header, "Referer", val)
	case "-b", "--cookie":
		if !strings.Contains(val, "=") {
			return fmt.Errorf("%w: -b %q reads cookies from a file; put the Cookie header in the command instead", ErrCapture, truncate(val, 40))
		}
		return addHeader(p.c.Header, "Cookie", val)
	case "-u", "--user":
		return addHeader(p.c.Header, "Authorization", "Basic "+base64.StdEncoding.EncodeToString([]byte(val)))
	case "--url":
		return p.setURL(val)
	case "-F", "--form", "--form-string", "-T", "--upload-file":
		return fmt.Errorf("%w: curl %s (multipart form or file upload) is not supported; save the request as a raw HTTP file or a HAR file instead", ErrCapture, opt)
	}
	return nil
}

// header reads -H "Name: value". "Name:" with nothing after removes a
// header in curl; "Name;" sends it empty.
func (p *curlParse) header(val string) error {
	if name, ok := strings.CutSuffix(val, ";"); ok && !strings.Contains(name, ":") {
		return addHeader(p.c.Header, strings.TrimSpace(name), "")
	}
	name, value, ok := strings.Cut(val, ":")
	if !ok {
		return fmt.Errorf("%w: -H %q is not Name: value", ErrCapture, truncate(val, 60))
	}
	name, value = strings.TrimSpace(name), strings.TrimSpace(value)
	if value == "" {
		if !validHeaderName(name) {
			return fmt.Errorf("%w: header name %q is not valid", ErrCapture, name)
		}
		p.c.Header.Del(name)
		return nil
	}
	return addHeader(p.c.Header, name, value)
}

// dataArg reads a -d or --data-binary value: @file reads the file (-d drops
// its carriage returns and newlines, as curl does), else the text itself.
func (p *curlParse) dataArg(val string, strip bool) ([]byte, error) {
	name, ok := strings.CutPrefix(val, "@")
	if !ok {
		return []byte(val), nil
	}
	b, err := p.read(name)
	if err != nil {
		return nil, err
	}
	if strip {
		b = bytes.ReplaceAll(bytes.ReplaceAll(b, []byte("\r"), nil), []byte("\n"), nil)
	}
	return b, nil
}

// urlencodeArg reads a --data-urlencode value: content, =content,
// name=content, @file or name@file.
func (p *curlParse) urlencodeArg(val string) ([]byte, error) {
	if i := strings.IndexAny(val, "=@"); i >= 0 {
		name, rest := val[:i], val[i+1:]
		content := rest
		if val[i] == '@' {
			b, err := p.read(rest)
			if err != nil {
				return nil, err
			}
			content = string(b)
		}
		enc := url.QueryEscape(content)
		if name == "" {
			return []byte(enc), nil
		}
		return []byte(name + "=" + enc), nil
	}
	return []byte(url.QueryEscape(val)), nil
}

func (p *curlParse) read(name string) ([]byte, error) {
	if p.readFile == nil {
		return nil, fmt.Errorf("%w: the command reads the file %q (@file), which is not allowed here; paste the body in", ErrCapture, truncate(name, 60))
	}
	if name == "-" {
		return nil, fmt.Errorf("%w: the command reads the body from stdin (@-); paste the body in", ErrCapture)
	}
	b, err := p.readFile(name)
	if err != nil {
		return nil, fmt.Errorf("%w: @%s: %w", ErrCapture, name, err)
	}
	return b, nil
}

func (p *curlParse) finish() (Capture, error) {
	c := p.c
	if p.rawURL == "" {
		return Capture{}, fmt.Errorf("%w: the curl command names no URL", ErrCapture)
	}
	raw := p.rawURL
	if !strings.Contains(raw, "://") {
		raw = "http://" + raw // as curl does
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return Capture{}, fmt.Errorf("%w: %q is not an http(s) URL", ErrCapture, truncate(p.rawURL, 80))
	}
	body := bytes.Join(p.data, []byte("&"))
	switch {
	case p.get && len(p.data) > 0:
		if u.RawQuery != "" {
			u.RawQuery += "&"
		}
		u.RawQuery += string(body)
		body = nil
	case p.json:
		if c.Header.Get("Content-Type") == "" {
			c.Header.Set("Content-Type", "application/json")
		}
		if c.Header.Get("Accept") == "" {
			c.Header.Set("Accept", "application/json")
		}
	case len(p.data) > 0 && c.Header.Get("Content-Type") == "":
		c.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	u.RawQuery = cleanQuery(u.RawQuery)
	c.URL = u.String()
	c.Body = body
	c.Method = p.method
	if c.Method == "" {
		c.Method = http.MethodGet
		if len(p.data) > 0 && !p.get {
			c.Method = http.MethodPost
		}
	}
	if !validMethod(c.Method) {
		return Capture{}, fmt.Errorf("%w: method %q is not valid", ErrCapture, truncate(c.Method, 20))
	}
	return c, nil
}

// shellWords splits a command line as a POSIX shell would, for the quoting
// that "Copy as cURL" produces: '…', "…" (with \" \\ \$ \` escapes),
// $'…' (ANSI-C escapes), backslash escapes outside quotes, and
// backslash-newline continuations. Variables and substitutions are not
// expanded; a '#' starting a word begins a comment.
func shellWords(s string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord := false
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '\\' && i+1 < len(s) && s[i+1] == '\n':
			i += 2
		case c == '\\' && i+2 < len(s) && s[i+1] == '\r' && s[i+2] == '\n':
			i += 3
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
			i++
		case c == '#' && !inWord:
			for i < len(s) && s[i] != '\n' {
				i++
			}
		case c == '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, fmt.Errorf("%w: unterminated ' quote in the curl command", ErrCapture)
			}
			cur.WriteString(s[i+1 : i+1+j])
			inWord = true
			i += j + 2
		case c == '$' && i+1 < len(s) && s[i+1] == '\'':
			n, err := ansiC(s[i+2:], &cur)
			if err != nil {
				return nil, err
			}
			inWord = true
			i += 2 + n
		case c == '"':
			i++
			closed := false
			for i < len(s) {
				d := s[i]
				if d == '"' {
					closed = true
					i++
					break
				}
				if d == '\\' && i+1 < len(s) && strings.IndexByte("\"\\$`\n", s[i+1]) >= 0 {
					if s[i+1] != '\n' {
						cur.WriteByte(s[i+1])
					}
					i += 2
					continue
				}
				cur.WriteByte(d)
				i++
			}
			if !closed {
				return nil, fmt.Errorf("%w: unterminated \" quote in the curl command", ErrCapture)
			}
			inWord = true
		case c == '\\':
			if i+1 < len(s) {
				cur.WriteByte(s[i+1])
			}
			inWord = true
			i += 2
		default:
			cur.WriteByte(c)
			inWord = true
			i++
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}

// ansiC reads the body of a $'…' string up to its closing quote, writes the
// decoded text to out and returns how many bytes it read, quote included.
func ansiC(s string, out *strings.Builder) (int, error) {
	for i := 0; i < len(s); {
		c := s[i]
		if c == '\'' {
			return i + 1, nil
		}
		if c != '\\' || i+1 >= len(s) {
			out.WriteByte(c)
			i++
			continue
		}
		e := s[i+1]
		i += 2
		switch e {
		case 'n':
			out.WriteByte('\n')
		case 't':
			out.WriteByte('\t')
		case 'r':
			out.WriteByte('\r')
		case 'a':
			out.WriteByte('\a')
		case 'b':
			out.WriteByte('\b')
		case 'f':
			out.WriteByte('\f')
		case 'v':
			out.WriteByte('\v')
		case 'e', 'E':
			out.WriteByte(0x1b)
		case '\\', '\'', '"', '?':
			out.WriteByte(e)
		case 'x':
			n, v := hexDigits(s[i:], 2)
			if n == 0 {
				out.WriteString(`\x`)
				continue
			}
			out.WriteByte(byte(v))
			i += n
		case 'u', 'U':
			digits := 4
			if e == 'U' {
				digits = 8
			}
			n, v := hexDigits(s[i:], digits)
			if n == 0 || v > utf8.MaxRune {
				out.WriteByte('\\')
				out.WriteByte(e)
				continue
			}
			out.WriteRune(rune(v))
			i += n
		case '0', '1', '2', '3', '4', '5', '6', '7':
			j := i - 1
			for j < len(s) && j < i+2 && s[j] >= '0' && s[j] <= '7' {
				j++
			}
			v, _ := strconv.ParseUint(s[i-1:j], 8, 16)
			out.WriteByte(byte(v))
			i = j
		default:
			out.WriteByte('\\')
			out.WriteByte(e)
		}
	}
	return 0, fmt.Errorf("%w: unterminated $' quote in the curl command", ErrCapture)
}

func hexDigits(s string, limit int) (int, uint64) {
	n := 0
	for n < len(s) && n < limit && strings.IndexByte("0123456789abcdefABCDEF", s[n]) >= 0 {
		n++
	}
	if n == 0 {
		return 0, 0
	}
	v, _ := strconv.ParseUint(s[:n], 16, 64)
	return n, v
}
