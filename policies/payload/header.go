package payload

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
)

// ErrBadHeader is returned, wrapped, for a header that cannot be added.
var ErrBadHeader = errors.New("bad header")

// ParseHeader reads 'Name: value', as curl -H takes it, and returns the
// name in canonical form and the value without surrounding spaces. The
// name is an HTTP token; the value holds no line break or other control
// character but tab. Messages never repeat the value, which may be a
// token.
func ParseHeader(s string) (name, value string, err error) {
	name, value, ok := strings.Cut(s, ":")
	name = strings.TrimSpace(name)
	if !ok || name == "" {
		return "", "", fmt.Errorf("%w: expected 'Name: value', e.g. 'X-Gateway-Token: …'", ErrBadHeader)
	}
	for i := 0; i < len(name); i++ {
		if !isTokenChar(name[i]) {
			return "", "", fmt.Errorf("%w %q: a header name is letters, digits and !#$%%&'*+-.^_`|~, with no spaces", ErrBadHeader, name)
		}
	}
	value = strings.TrimSpace(value)
	for i := 0; i < len(value); i++ {
		if c := value[i]; (c < ' ' && c != '\t') || c == 0x7f {
			return "", "", fmt.Errorf("%w %s: its value holds a control character (byte %d): a header value is one line", ErrBadHeader, http.CanonicalHeaderKey(name), i+1)
		}
	}
	return http.CanonicalHeaderKey(name), value, nil
}

// isTokenChar says c may be in an HTTP header name (RFC 9110's tchar).
func isTokenChar(c byte) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	}
	return strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0
}
