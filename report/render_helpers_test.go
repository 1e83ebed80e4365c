package report_test

import (
	"bytes"
	"testing"

	"github.com/retrysim/retrysim/report"
)

// Rendering a report the way a reader gets it.

// renderAll writes rep as text, markdown and JSON, the three formats a
// person or a CI job reads a verdict in.
func renderAll(t *testing.T, rep *report.Report) (text, md, js string) {
	t.Helper()
	var tb, mb, jb bytes.Buffer
	if err := report.WriteText(&tb, rep); err != nil {
		t.Fatal(err)
	}
	if err := report.WriteMarkdown(&mb, rep); err != nil {
		t.Fatal(err)
	}
	if err := report.WriteJSON(&jb, rep); err != nil {
		t.Fatal(err)
	}
	return tb.String(), mb.String(), jb.String()
}

// mdEscape is how the markdown report escapes its text.
func mdEscape(s string) string {
	return report.EscapeMarkdown(s)
}
