package capture

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// ParseCurl reads a curl command line, as browsers' "Copy as cURL (bash)",
// provider dashboards and API docs write it: -X, -H, -d / --data /
// --data-raw / --data-binary / --data-urlencode / --json (joined with "&"
// when repeated, as curl does), -A, -e, -b, -u, --url, and the common
// options that do not change the request (-s, -k, -L, --compressed, -o …).
// Quoting follows the shell: '…', "…", $'…', backslashes and line
// continuations. readFile reads @file arguments; nil refuses them.
func ParseCurl(cmdline string, readFile func(string) ([]byte, error)) (Request, error) {
	if len(cmdline) > MaxSize {
		return Request{}, fmt.Errorf("%w: larger than %d MiB", ErrUnreadable, MaxSize>>20)
	}
	args, err := shellWords(cmdline)
	if err != nil {
		return Request{}, err
	}
	if len(args) > 0 && args[0] == "$" {
		args = args[1:]
	}
	if len(args) == 0 || !isCurl([]byte(args[0])) {
		return Request{}, fmt.Errorf("%w: a curl command line starts with curl", ErrUnreadable)
	}
	p := curlParse{c: Request{Header: http.Header{}, Format: FormatCurl}, readFile: readFile}
	if err := p.parse(args[1:]); err != nil {
		return Request{}, err
	}
	return p.finish()
}

type curlParse struct {
	c        Request
	method   string
	rawURL   string
	data     [][]byte
	size     int // the body's bytes so far, separators included
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
					return fmt.Errorf("%w: curl option %s needs a value", ErrUnreadable, a)
				}
				i++
				if err := p.option(a, args[i]); err != nil {
					return err
				}
				continue
			}
			return fmt.Errorf("%w: curl option %s is not supported here; save the request as a raw HTTP file or a HAR file instead", ErrUnreadable, truncate(a, 40))
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
					return fmt.Errorf("%w: curl option %s (in %q) is not supported here; save the request as a raw HTTP file or a HAR file instead", ErrUnreadable, opt, truncate(a, 40))
				}
				val := a[j+1:]
				if val == "" {
					if i+1 >= len(args) {
						return fmt.Errorf("%w: curl option %s needs a value", ErrUnreadable, opt)
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
		return fmt.Errorf("%w: the command names more than one URL (%s and %s); keep the delivery's", ErrUnreadable, truncate(p.rawURL, 60), truncate(u, 60))
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
		return p.addData(b)
	case "--data-binary":
		b, err := p.dataArg(val, false)
		if err != nil {
			return err
		}
		return p.addData(b)
	case "--json":
		b, err := p.dataArg(val, false)
		if err != nil {
			return err
		}
		p.json = true
		return p.addData(b)
	case "--data-raw":
		return p.addData([]byte(val))
	case "--data-urlencode":
		b, err := p.urlencodeArg(val)
		if err != nil {
			return err
		}
		return p.addData(b)
	case "-A", "--user-agent":
		return addHeader(p.c.Header, "User-Agent", val)
	case "-e", "--referer":
		return addHeader(p.c.Header, "Referer", val)
	case "-b", "--cookie":
		if !strings.Contains(val, "=") {
			return fmt.Errorf("%w: -b %q reads cookies from a file; put the Cookie header in the command instead", ErrUnreadable, truncate(val, 40))
		}
		return addHeader(p.c.Header, "Cookie", val)
	case "-u", "--user":
		return addHeader(p.c.Header, "Authorization", "Basic "+base64.StdEncoding.EncodeToString([]byte(val)))
	case "--url":
		return p.setURL(val)
	case "-F", "--form", "--form-string", "-T", "--upload-file":
		return fmt.Errorf("%w: curl %s (multipart form or file upload) is not supported; save the request as a raw HTTP file or a HAR file instead", ErrUnreadable, opt)
	}
	return nil
}

// addData adds one data argument to the body, refusing a body that grows
// past MaxSize (each @file is capped, their sum must be too).
func (p *curlParse) addData(b []byte) error {
	p.size += len(b)
	if len(p.data) > 0 {
		p.size++ // the "&" that joins them
	}
	if p.size > MaxSize {
		return fmt.Errorf("%w: the body the command sends is larger than %d MiB", ErrUnreadable, MaxSize>>20)
	}
	p.data = append(p.data, b)
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
		return fmt.Errorf("%w: -H %q is not Name: value", ErrUnreadable, truncate(val, 60))
	}
	name, value = strings.TrimSpace(name), strings.TrimSpace(value)
	if value == "" {
		if !validHeaderName(name) {
			return fmt.Errorf("%w: header name %q is not valid", ErrUnreadable, name)
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
		return nil, fmt.Errorf("%w: the command reads the file %q (@file), which is not allowed here; paste the body in", ErrUnreadable, truncate(name, 60))
	}
	if name == "-" {
		return nil, fmt.Errorf("%w: the command reads the body from stdin (@-); paste the body in", ErrUnreadable)
	}
	b, err := p.readFile(name)
	if err != nil {
		return nil, fmt.Errorf("%w: @%s: %w", ErrUnreadable, name, err)
	}
	return b, nil
}

func (p *curlParse) finish() (Request, error) {
	c := p.c
	if p.rawURL == "" {
		return Request{}, fmt.Errorf("%w: the curl command names no URL", ErrUnreadable)
	}
	raw := p.rawURL
	if !strings.Contains(raw, "://") {
		raw = "http://" + raw // as curl does
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return Request{}, fmt.Errorf("%w: %q is not an http(s) URL", ErrUnreadable, truncate(p.rawURL, 80))
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
		return Request{}, fmt.Errorf("%w: method %q is not valid", ErrUnreadable, truncate(c.Method, 20))
	}
	return c, nil
}

// shellWords splits a command line into words as bash would, with the
// shell parser shfmt is built on: '…', "…", $'…' (ANSI-C escapes),
// backslashes, line continuations and comments. It refuses what only a
// running shell could turn into words — a variable, a command
// substitution, a pipe, a second command — since the request would then
// depend on that shell.
func shellWords(s string) ([]string, error) {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(s), "")
	if err != nil {
		var perr syntax.ParseError
		if errors.As(err, &perr) {
			return nil, fmt.Errorf("%w: the curl command line does not parse as a shell command (line %d, column %d): %s", ErrUnreadable, perr.Pos.Line(), perr.Pos.Col(), perr.Text)
		}
		return nil, fmt.Errorf("%w: the curl command line does not parse as a shell command: %w", ErrUnreadable, err)
	}
	if len(f.Stmts) == 0 {
		return nil, nil
	}
	st := f.Stmts[0]
	call, simple := st.Cmd.(*syntax.CallExpr)
	if len(f.Stmts) > 1 || !simple || len(st.Redirs) > 0 || st.Background || st.Negated || len(call.Assigns) > 0 {
		return nil, fmt.Errorf("%w: the capture holds more than one plain curl command (pipes, redirections, variables or a second command); keep only the curl command", ErrUnreadable)
	}
	words := make([]string, 0, len(call.Args))
	for _, w := range call.Args {
		if part := shellOnly(w); part != "" {
			return nil, fmt.Errorf("%w: the curl command uses %s, which only a shell can expand; put its value in the command instead", ErrUnreadable, truncate(part, 40))
		}
		// Quote removal and brace expansion as bash does them; no
		// variable is set, so nothing else can expand.
		fields, err := expand.Fields(shellConfig, w)
		if err != nil {
			return nil, fmt.Errorf("%w: %w", ErrUnreadable, err)
		}
		words = append(words, fields...)
	}
	return words, nil
}

// shellConfig expands words with an empty environment and no file system.
var shellConfig = &expand.Config{Env: expand.ListEnviron()}

// shellOnly returns, as written, the first part of w that needs a running
// shell to expand (a variable, a command or process substitution,
// arithmetic, a glob-like extended pattern); "" when w is plain text.
func shellOnly(w *syntax.Word) string {
	var found string
	syntax.Walk(w, func(n syntax.Node) bool {
		if found != "" {
			return false
		}
		switch n := n.(type) {
		case *syntax.ParamExp:
			found = "$" + n.Param.Value
		case *syntax.CmdSubst:
			found = "a command substitution $(…)"
		case *syntax.ArithmExp:
			found = "an arithmetic expansion $((…))"
		case *syntax.ProcSubst:
			found = "a process substitution"
		case *syntax.ExtGlob:
			found = "an extended glob"
		}
		return found == ""
	})
	return found
}
