package report

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
)

// Formats a report is written in.
const (
	FormatText     = "text"
	FormatJSON     = "json"
	FormatMarkdown = "markdown"
	FormatCSV      = "csv"
	FormatPNG      = "png"
	FormatSVG      = "svg"
)

// Formats lists every format, text formats first.
func Formats() []string {
	return []string{FormatText, FormatJSON, FormatMarkdown, FormatCSV, FormatHTML, FormatPNG, FormatSVG}
}

// ErrFormat is returned, wrapped, for a format or file extension that is not
// one of Formats.
var ErrFormat = errors.New("unknown report format")

// IsChart reports whether format is a picture (PNG or SVG).
func IsChart(format string) bool { return format == FormatPNG || format == FormatSVG }

// extensions maps file extensions to formats.
var extensions = map[string]string{
	".txt": FormatText, ".text": FormatText, ".json": FormatJSON, ".md": FormatMarkdown,
	".markdown": FormatMarkdown, ".csv": FormatCSV, ".png": FormatPNG, ".svg": FormatSVG,
	".html": FormatHTML, ".htm": FormatHTML,
}

// FormatForPath picks the format from a file name's extension.
func FormatForPath(path string) (string, error) {
	ext := strings.ToLower(filepath.Ext(path))
	if f, ok := extensions[ext]; ok {
		return f, nil
	}
	return "", fmt.Errorf("%w: %q does not end in .png, .svg, .html, .md, .json, .csv or .txt", ErrFormat, path)
}

// CheckFormat returns an error naming the valid formats when format is not
// one of them (ReportFormats, PolicyFormats, ReplayFormats, TTLFormats or
// the caller's own list); the error is ErrFormat.
func CheckFormat(format string, valid []string) error {
	if slices.Contains(valid, format) {
		return nil
	}
	return &formatError{format: format, valid: valid}
}

// formatError is a format that is not one of valid.
type formatError struct {
	format string
	valid  []string
}

func (e *formatError) Error() string {
	return fmt.Sprintf("%q is not a format (valid: %s)", e.format, strings.Join(e.valid, ", "))
}

func (e *formatError) Is(target error) bool { return target == ErrFormat }

// TTLFormats are the formats of the TTL tables (WriteTTLText,
// WriteTTLMarkdown, and the JSON report).
func TTLFormats() []string {
	return []string{FormatText, FormatJSON, FormatMarkdown}
}

// DefaultTimeline is how many events' timelines the text and Markdown
// reports show.
const DefaultTimeline = 10

// Keep is how many events' attempts an Aggregator must keep (for
// WithTimeline) to render format, and a chart too when chart is set; -1 for
// all, which the Aggregator spools to a temporary file (Close it when the
// report is written). noTimeline leaves the per-event timeline out of text,
// Markdown and JSON.
func Keep(format string, chart, noTimeline bool) int {
	switch {
	case chart || format == FormatCSV || format == FormatHTML || IsChart(format):
		return -1
	case noTimeline:
		return 0
	case format == FormatJSON:
		return -1
	}
	return DefaultTimeline
}

// Write writes rep in one of the text formats (text, json, markdown, csv,
// html with the default charts).
func Write(w io.Writer, rep *Report, format string) error {
	switch format {
	case FormatText:
		return WriteText(w, rep)
	case FormatJSON:
		return WriteJSON(w, rep)
	case FormatMarkdown:
		return WriteMarkdown(w, rep)
	case FormatCSV:
		return WriteCSV(w, rep)
	case FormatHTML:
		return WriteHTML(w, rep, ChartOptions{})
	}
	return fmt.Errorf("%w: %q is not a text format", ErrFormat, format)
}

// WriteTTL writes the TTL tables of rep in one of TTLFormats: the text
// and Markdown tables, or the whole report as JSON.
func WriteTTL(w io.Writer, rep *Report, format string) error {
	switch format {
	case FormatJSON:
		return WriteJSON(w, rep)
	case FormatMarkdown:
		return WriteTTLMarkdown(w, rep)
	}
	return WriteTTLText(w, rep)
}
