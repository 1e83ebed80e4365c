package report

import (
	"net/url"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Every value a report did not write itself (an event's id and type, a
// scenario's or a policy's name, a target, a handler's answer, whatever a
// results stream says) is escaped for the format it lands in, here, so
// that it can neither start a line of its own, nor close the markup it
// sits in, nor drive the terminal it is printed on. JSON, CSV, JUnit and
// HTML are escaped by their encoders.

// EscapeText is s as the text report writes a value from outside: every
// control character (a newline, a carriage return, ESC, BEL, the C1
// codes) and every character that reorders text (a bidi override) as a Go
// escape (\n, \x1b, \u202e). A tab stays. A string with none is returned
// as it is, without a copy.
func EscapeText(s string) string {
	if !needsEscape(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for _, r := range s {
		if escaped(r) {
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// needsEscape reports whether EscapeText would change s: plain printable
// ASCII, the common case, is told apart byte by byte.
func needsEscape(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x80 {
			return strings.ContainsFunc(s[i:], escaped)
		}
		if (c < 0x20 && c != '\t') || c == 0x7f {
			return true
		}
	}
	return false
}

// escaped reports whether EscapeText writes r as an escape.
func escaped(r rune) bool {
	if r == '\t' {
		return false
	}
	return r == utf8.RuneError || unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r)
}

// EscapeMarkdown is s as the markdown report writes text: the characters
// markdown would read as formatting or as a link, an image or HTML
// escaped, and control characters as EscapeText writes them (a value never
// breaks its line). A redactor uses it to know a secret's markdown
// spelling.
func EscapeMarkdown(s string) string { return mdEscape(s) }

// mdEscaper escapes markdown's punctuation; the backslash first, so that
// a value's own backslash cannot undo an escape.
var mdEscaper = strings.NewReplacer(`\`, `\\`, "*", `\*`, "_", `\_`, "<", "&lt;", ">", "&gt;", "|", `\|`, "`", "\\`",
	"[", `\[`, "]", `\]`, "!", `\!`, "~", `\~`, "#", `\#`, "&", "&amp;")

// mdEscape keeps text from being read as Markdown markup.
func mdEscape(s string) string { return mdEscaper.Replace(EscapeText(s)) }

// mdCode is s as a Markdown code span the content cannot close: fenced by
// one backtick more than the longest run of backticks in s, padded with a
// space where s starts or ends with one, control characters escaped. A
// table cell's pipes are escaped by the table.
func mdCode(s string) string {
	s = EscapeText(s)
	longest, run := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", longest+1)
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") || s == "" {
		s = " " + s + " "
	}
	return fence + s + fence
}

// mdLink is a file name as the destination of a Markdown link or picture:
// percent-escaped, parentheses and angle brackets included, so that it
// cannot end the link or add markup of its own.
func mdLink(name string) string {
	p := (&url.URL{Path: name}).EscapedPath()
	return strings.NewReplacer("(", "%28", ")", "%29", "<", "%3C", ">", "%3E", " ", "%20").Replace(p)
}

// xmlSafe is an SVG document with every character XML 1.0 forbids (the
// control characters but tab, newline and carriage return; bytes that are
// not UTF-8; U+FFFE and U+FFFF) replaced by U+FFFD, so that a label made
// of a scenario's or an event's text cannot stop the picture from
// opening. A document with none is returned as it is.
func xmlSafe(b []byte) []byte {
	bad := func(r rune, size int) bool {
		return r == utf8.RuneError && size <= 1 || r < 0x20 && r != '\t' && r != '\n' && r != '\r' || r == 0xFFFE || r == 0xFFFF
	}
	clean := true
	for i := 0; i < len(b) && clean; {
		r, size := utf8.DecodeRune(b[i:])
		clean = !bad(r, size)
		i += size
	}
	if clean {
		return b
	}
	out := make([]byte, 0, len(b)+16)
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if bad(r, size) {
			out = utf8.AppendRune(out, utf8.RuneError)
		} else {
			out = append(out, b[i:i+size]...)
		}
		i += size
	}
	return out
}
