package redact

import (
	"strconv"
	"strings"
	"unicode"
)

// Printable returns s with every control character (ESC, OSC's BEL, C1
// codes, a carriage return that would overwrite the line) written as a Go
// escape, so that text a handler controls (a reason phrase, an error
// quoting its answer) cannot drive the terminal it is printed on.
// Newlines and tabs stay.
func Printable(s string) string {
	clean := true
	for i := 0; i < len(s) && clean; i++ {
		// Plain ASCII text is the common case; anything else gets the
		// rune-by-rune look.
		c := s[i]
		clean = c >= 0x20 && c < 0x7f || c == '\n' || c == '\t'
	}
	if clean || !strings.ContainsFunc(s, unprintable) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if unprintable(r) {
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

func unprintable(r rune) bool {
	return r != '\n' && r != '\t' && unicode.IsControl(r)
}
