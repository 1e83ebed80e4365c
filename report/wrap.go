package report

import (
	"bytes"
	"io"
	"strings"
	"unicode/utf8"
)

// DefaultWidth is the width the text report wraps to when Report.Width is
// zero: what fits a terminal window and a CI log.
const DefaultWidth = 120

// wrapWriter wraps each line written through it at width runes, breaking
// between words; a continuation is indented two spaces past the line's own
// indent (past a "- " or "✗ " mark too), so a wrapped item still reads as
// one. A word longer than the width (a URL) is not broken.
type wrapWriter struct {
	w     io.Writer
	width int
	buf   []byte
}

func (ww *wrapWriter) Write(p []byte) (int, error) {
	ww.buf = append(ww.buf, p...)
	for {
		i := bytes.IndexByte(ww.buf, '\n')
		if i < 0 {
			return len(p), nil
		}
		line := string(ww.buf[:i])
		ww.buf = ww.buf[i+1:]
		for _, l := range wrapLine(line, ww.width) {
			if _, err := io.WriteString(ww.w, l+"\n"); err != nil {
				return 0, err
			}
		}
	}
}

// flush writes what is left after the last newline.
func (ww *wrapWriter) flush() error {
	if len(ww.buf) == 0 {
		return nil
	}
	_, err := io.WriteString(ww.w, strings.Join(wrapLine(string(ww.buf), ww.width), "\n"))
	ww.buf = nil
	return err
}

// wrapLine breaks line into lines of at most width runes.
func wrapLine(line string, width int) []string {
	if width <= 0 || utf8.RuneCountInString(line) <= width {
		return []string{line}
	}
	body := strings.TrimLeft(line, " ")
	indent := len(line) - len(body)
	hang := indent + 2
	for _, mark := range []string{"- ", "✗ ", "✓ ", "? "} {
		if strings.HasPrefix(body, mark) {
			hang = indent + utf8.RuneCountInString(mark)
		}
	}
	if hang > width/2 {
		hang = indent
	}
	var out []string
	pad := line[:indent]
	for utf8.RuneCountInString(pad)+utf8.RuneCountInString(body) > width {
		cut := breakAt(body, width-utf8.RuneCountInString(pad))
		if cut < 0 {
			break
		}
		out = append(out, pad+strings.TrimRight(body[:cut], " "))
		body = strings.TrimLeft(body[cut:], " ")
		pad = strings.Repeat(" ", hang)
	}
	return append(out, pad+body)
}

// breakAt is the byte index of the last space in s at which a line of at
// most n runes can end, or of the first space past it when no word fits;
// -1 when s has no space to break at. A space before a count ("×3") is
// not one: the count stays with its id.
func breakAt(s string, n int) int {
	best, runes := -1, 0
	for i, r := range s {
		if r == ' ' && i > 0 && s[i-1] != ' ' && !strings.HasPrefix(s[i+1:], "×") {
			if runes > n && best >= 0 {
				break
			}
			best = i
			if runes > n {
				break
			}
		}
		runes++
	}
	return best
}
