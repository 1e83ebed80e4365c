package output_test

import (
	"bytes"
	"errors"
	"os"
	"testing"

	"github.com/retrysim/retrysim/report"
	"github.com/retrysim/retrysim/report/advice"
	"github.com/retrysim/retrysim/report/output"
	"github.com/retrysim/retrysim/report/redact"
)

// nullDevice opens the null device, a character device on every machine:
// a stand-in for a terminal.
func nullDevice(t *testing.T) *os.File {
	t.Helper()
	dev, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { dev.Close() })
	if !output.IsTerminal(dev) {
		t.Skip("the null device is not a character device here")
	}
	return dev
}

// TestTerminalSeenThroughRedactor: stdout and stderr are wrapped in a
// redactor, which must not hide that they are a terminal (the progress
// line and the picture-to-terminal check depend on it).
func TestTerminalSeenThroughRedactor(t *testing.T) {
	dev := nullDevice(t)
	if !output.IsTerminal((&redact.Set{}).Writer(dev)) {
		t.Fatal("a terminal behind the redactor is not seen as one")
	}
	if output.IsTerminal((&redact.Set{}).Writer(&bytes.Buffer{})) {
		t.Fatal("a buffer behind the redactor is seen as a terminal")
	}
}

// TestNoPictureToATerminal: a picture asked for stdout is refused when
// stdout is a terminal, with what to do instead.
func TestNoPictureToATerminal(t *testing.T) {
	dev := nullDevice(t)
	p, errs := output.Request{Format: report.FormatPNG, Chart: report.ChartTimeline, By: report.ByEvent}.Plan(advice.Flag)
	if len(errs) != 0 {
		t.Fatal(errs)
	}
	err := p.Write(dev, &report.Report{})
	var te *output.TerminalError
	if !errors.As(err, &te) || err.Error() != "--format png writes a picture: name a file with --out FILE.png, or redirect stdout" {
		t.Errorf("error %v", err)
	}
}

// TestWidthFromColumns: off a terminal, the text wraps to $COLUMNS when it
// is wide enough to read, else to the report's default.
func TestWidthFromColumns(t *testing.T) {
	for _, c := range []struct {
		columns string
		want    int
	}{{"120", 120}, {"20", 0}, {"wide", 0}, {"", 0}} {
		t.Setenv("COLUMNS", c.columns)
		if got := output.TerminalWidth(&bytes.Buffer{}); got != c.want {
			t.Errorf("COLUMNS=%q: width %d, want %d", c.columns, got, c.want)
		}
	}
}
