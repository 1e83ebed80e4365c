package report

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// Wrapping keeps every line within the width, indents a continuation past
// the line's own mark, never splits a word or an id from its count, and
// loses no text.
func TestWrapLine(t *testing.T) {
	for _, tc := range []struct {
		name, line string
		width      int
		want       []string
	}{
		{"fits", "  short line", 40, []string{"  short line"}},
		{"bullet", "    - store the dedup id under a unique constraint in the same transaction", 40, []string{
			"    - store the dedup id under a unique",
			"      constraint in the same transaction",
		}},
		{"count stays with its id", "  NOT IDEMPOTENT: evt_aaaaaaaaaaaaaaaa ×3, evt_b ×2", 40, []string{
			"  NOT IDEMPOTENT:",
			"    evt_aaaaaaaaaaaaaaaa ×3, evt_b ×2",
		}},
		{"a word longer than the width stays whole", "  see https://example.com/a/very/long/path/that/does/not/fit here", 30, []string{
			"  see",
			"    https://example.com/a/very/long/path/that/does/not/fit",
			"    here",
		}},
		{"columns inside a line are kept", "    ✓ duplicate-effects  no event was processed more than once", 200, []string{
			"    ✓ duplicate-effects  no event was processed more than once",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := wrapLine(tc.line, tc.width)
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("wrapLine(%q, %d):\n%s\nwant:\n%s", tc.line, tc.width, strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
			if strings.Join(strings.Fields(strings.Join(got, " ")), " ") != strings.Join(strings.Fields(tc.line), " ") {
				t.Errorf("wrapping changed the words: %q", got)
			}
			for _, l := range got {
				if n := utf8.RuneCountInString(l); n > tc.width && !strings.Contains(l, "https://") {
					t.Errorf("line of %d runes, over %d: %q", n, tc.width, l)
				}
			}
		})
	}
}
