package output

import (
	"io"
	"os"
	"strconv"

	"golang.org/x/term"

	"github.com/retrysim/retrysim/report/redact"
)

// TerminalWidth is the width the text report wraps to on w: the
// terminal's when w is one, else $COLUMNS when it is set (as shells and
// CI runners do), else 0, the report's default.
func TerminalWidth(w io.Writer) int {
	if r, ok := w.(*redact.Writer); ok {
		w = r.Underlying()
	}
	if f, ok := w.(*os.File); ok && IsTerminal(f) {
		if width, _, err := term.GetSize(int(f.Fd())); err == nil && width >= minWidth {
			return width
		}
	}
	if n, err := strconv.Atoi(os.Getenv("COLUMNS")); err == nil && n >= minWidth {
		return n
	}
	return 0
}

// minWidth is the narrowest the text report wraps to: narrower, it would
// be more indent than text.
const minWidth = 40

// IsTerminal reports whether w is a terminal (a character device), seen
// through the redactor in front of stdout and stderr.
func IsTerminal(w io.Writer) bool {
	if r, ok := w.(*redact.Writer); ok {
		w = r.Underlying()
	}
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
