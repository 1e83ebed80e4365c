package report

import (
	"io"
	"strings"
	"unicode/utf8"
)

// table lays out rows of cells in columns for the text report: every column
// as wide as its widest cell, two spaces between columns.
type table struct {
	rows [][]string
}

func (t *table) add(cells ...string) { t.rows = append(t.rows, cells) }

// widths are the columns' widths in runes: each its widest cell's.
func (t *table) widths() []int {
	var widths []int
	for _, row := range t.rows {
		for i, c := range row {
			if i >= len(widths) {
				widths = append(widths, 0)
			}
			widths[i] = max(widths[i], utf8.RuneCountInString(c))
		}
	}
	return widths
}

// lines renders the table, each line prefixed by indent, trailing spaces
// trimmed.
func (t *table) lines(indent string) []string {
	widths := t.widths()
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

// fitted renders the table in at most width columns: when its lines
// would be wider, the widest columns are narrowed in turn (not below
// minCell) and their cells wrapped onto lines under the row, between
// words.
func (t *table) fitted(indent string, width int) []string {
	const minCell = 16
	widths := t.widths()
	total := func() int {
		n := utf8.RuneCountInString(indent)
		for _, w := range widths {
			n += w + 2
		}
		return n - 2
	}
	for total() > width {
		widest := 0
		for i, w := range widths {
			if w > widths[widest] {
				widest = i
			}
		}
		if widths[widest] <= minCell {
			break
		}
		widths[widest]--
	}
	var out []string
	for _, row := range t.rows {
		cells := make([][]string, len(row))
		height := 1
		for i, c := range row {
			cells[i] = wrapCell(c, widths[i])
			height = max(height, len(cells[i]))
		}
		for l := range height {
			var b strings.Builder
			b.WriteString(indent)
			for i := range row {
				c := ""
				if l < len(cells[i]) {
					c = cells[i][l]
				}
				b.WriteString(c)
				if i < len(row)-1 {
					b.WriteString(strings.Repeat(" ", max(0, widths[i]-utf8.RuneCountInString(c))+2))
				}
			}
			out = append(out, strings.TrimRight(b.String(), " "))
		}
	}
	return out
}

// wrapCell breaks a cell's text into lines (WrapWords); an empty cell is
// one empty line.
func wrapCell(s string, width int) []string {
	if out := WrapWords(s, width); len(out) > 0 {
		return out
	}
	return []string{""}
}

// WrapWords breaks s into lines of at most width runes, between words
// (white space folded; a word longer than width stays whole). Table
// cells, chart notes and policy notes all wrap here.
func WrapWords(s string, width int) []string {
	var out []string
	line := ""
	for _, w := range strings.Fields(s) {
		if line != "" && utf8.RuneCountInString(line)+1+utf8.RuneCountInString(w) > width {
			out = append(out, line)
			line = w
			continue
		}
		if line != "" {
			line += " "
		}
		line += w
	}
	if line != "" {
		out = append(out, line)
	}
	return out
}

// WriteTable writes rows (the first one a header) as a table of columns
// that fits width columns of text (DefaultWidth when 0), wrapping its last
// columns' cells when they would run past it.
func WriteTable(w io.Writer, rows [][]string, width int) error {
	if width <= 0 {
		width = DefaultWidth
	}
	t := table{rows: rows}
	for _, l := range t.fitted("", width) {
		if _, err := io.WriteString(w, l+"\n"); err != nil {
			return err
		}
	}
	return nil
}
