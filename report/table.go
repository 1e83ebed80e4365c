package report

import (
	"strings"
	"unicode/utf8"
)

// table lays out rows of cells in columns for the text report: every column
// as wide as its widest cell, two spaces between columns.
type table struct {
	rows [][]string
}

func (t *table) add(cells ...string) { t.rows = append(t.rows, cells) }

// lines renders the table, each line prefixed by indent, trailing spaces
// trimmed.
func (t *table) lines(indent string) []string {
	var widths []int
	for _, row := range t.rows {
		for i, c := range row {
			if i >= len(widths) {
				widths = append(widths, 0)
			}
			widths[i] = max(widths[i], utf8.RuneCountInString(c))
		}
	}
	out := make([]string, 0, len(t.rows))
	for _, row := range t.rows {
		var b strings.Builder
		b.WriteString(indent)
		for i, c := range row {
			b.WriteString(c)
			if i < len(row)-1 {
				b.WriteString(strings.Repeat(" ", widths[i]-utf8.RuneCountInString(c)+2))
			}
		}
		out = append(out, strings.TrimRight(b.String(), " "))
	}
	return out
}

func (t *table) write(w *errWriter, indent string) {
	for _, l := range t.lines(indent) {
		w.printf("%s\n", l)
	}
}
