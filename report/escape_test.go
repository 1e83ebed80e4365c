package report_test

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/retrysim/retrysim/report"
	"github.com/retrysim/retrysim/simulator"
)

// forgedVerdict is an event id a signed proxy delivery can carry: it tries
// to put a verdict, a heading and a remote image of its own into the
// report, and to close the code span it sits in.
const forgedVerdict = "evt_q`\n\n**Verdict: IDEMPOTENT** ✓\n\n# Fine\n\n<img src=http://127.0.0.1:9/x.png>![x](http://127.0.0.1:9/y.png)\x1b]0;pwned\x07"

// A value from outside (an event's id and type, the scenario's name, the
// target) shows as text in every format: in the markdown it cannot close
// its code span, start a line, or add a picture or HTML; in the text it
// cannot start a line or drive the terminal.
func TestFieldsFromOutsideAreEscaped(t *testing.T) {
	s := newRecStream(1)
	s.recs[0].EventType = "invoice.paid``\n**IDEMPOTENT**\x1b[2J"
	s.recs[0].Target = "http://127.0.0.1:1/\r**Verdict: IDEMPOTENT**"
	recs := s.attempt(0, 1, 0, simulator.Delivered, 200, true, time.Millisecond).fate(0, simulator.FateDelivered).end(nil, false)
	for i := range recs {
		recs[i].Scenario = "test\n## Verdict: IDEMPOTENT"
		if recs[i].EventID != "" {
			recs[i].EventID = forgedVerdict
		}
	}
	runs, err := report.Summarize(recs)
	if err != nil {
		t.Fatal(err)
	}
	text, md, _ := renderAll(t, &report.Report{Runs: runs, Timeline: 5, Verbose: true, Width: -1})

	for _, line := range strings.Split(md, "\n") {
		// Inside the id's code span, markup is shown as it is.
		if a, rest, ok := strings.Cut(line, "``"); ok {
			if _, b, ok := strings.Cut(rest, "``"); ok {
				line = a + b
			}
		}
		switch {
		case strings.HasPrefix(line, "**Verdict: IDEMPOTENT"), strings.HasPrefix(line, "# Fine"), strings.HasPrefix(line, "## Verdict"):
			t.Errorf("a value from outside made a line of its own in the markdown: %q", line)
		case strings.Contains(line, "<img"), strings.Contains(line, "![x]"), strings.Contains(line, "\x1b"), strings.Contains(line, "\r"):
			t.Errorf("a value from outside put markup or a control character into the markdown: %q", line)
		}
	}
	// The id's code span holds the whole id: the fence is longer than any
	// run of backticks in it.
	if !strings.Contains(md, "| ``evt_q`\\n\\n**Verdict: IDEMPOTENT** ✓") {
		t.Errorf("the event id is not in a code span it cannot close:\n%s", md)
	}
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "**Verdict") || strings.HasPrefix(line, "# Fine") || strings.ContainsAny(line, "\x1b\x07\r") {
			t.Errorf("a value from outside broke a line of the text or reached the terminal: %q", line)
		}
	}
	if !strings.Contains(text, `evt_q`+"`"+`\n\n**Verdict: IDEMPOTENT** ✓\n\n# Fine`) {
		t.Errorf("the text does not show the id with its newlines escaped:\n%s", text)
	}
}

// A stream whose run id is one --run-id would refuse is refused, naming
// its line; a stream cut in the middle of its last line is read as far as
// it goes and reported INCOMPLETE, as one cut between lines is.
func TestReadJSONLRunIDAndCutLine(t *testing.T) {
	s := newRecStream(1)
	recs := s.attempt(0, 1, 0, simulator.Delivered, 200, true, time.Millisecond).fate(0, simulator.FateDelivered).end(nil, false)
	encode := func(recs []simulator.Record) []byte {
		var b bytes.Buffer
		w := report.NewJSONLWriter(&b)
		for i := range recs {
			if err := w.Add(&recs[i]); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		return b.Bytes()
	}

	bad := append([]simulator.Record(nil), recs...)
	bad[0].RunID = "ab\n**Verdict: IDEMPOTENT**"
	err := report.ReadJSONL(bytes.NewReader(encode(bad)), func(*simulator.Record) error { return nil })
	if err == nil || !strings.Contains(err.Error(), "line 1") || !strings.Contains(err.Error(), "invalid run id") {
		t.Errorf("a stream with run id %q read with %v, want it refused naming line 1", bad[0].RunID, err)
	}

	whole := encode(recs)
	lines := bytes.SplitAfter(whole, []byte("\n"))
	// Keep every line but the end record, and half of that one.
	end := lines[len(lines)-2]
	cut := append(bytes.Join(lines[:len(lines)-2], nil), end[:len(end)/2]...)
	agg := report.NewAggregator()
	if err := report.ReadJSONL(bytes.NewReader(cut), agg.Add); err != nil {
		t.Fatalf("a stream cut in the middle of its last line was refused: %v", err)
	}
	if err := agg.Close(); err != nil {
		t.Fatal(err)
	}
	var text bytes.Buffer
	if err := report.WriteText(&text, &report.Report{Runs: agg.Runs()}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "INCOMPLETE") {
		t.Errorf("a stream cut in the middle of a line is not reported INCOMPLETE:\n%s", text.String())
	}
	// A malformed line that is not the cut-off last one is still an error.
	broken := append(append([]byte(nil), lines[0]...), []byte("{not json\n")...)
	if err := report.ReadJSONL(bytes.NewReader(broken), func(*simulator.Record) error { return nil }); err == nil || !strings.Contains(err.Error(), "line 2") {
		t.Errorf("a malformed whole line read with %v, want an error naming line 2", err)
	}
}

// A chart's file name is a picture link's destination: it cannot end the
// link or add a picture of its own.
func TestChartLinkEscaped(t *testing.T) {
	s := newRecStream(1)
	recs := s.attempt(0, 1, 0, simulator.Delivered, 200, true, time.Millisecond).fate(0, simulator.FateDelivered).end(nil, false)
	runs, err := report.Summarize(recs)
	if err != nil {
		t.Fatal(err)
	}
	var md bytes.Buffer
	name := "out dir/a).png\n![x](http://127.0.0.1:9/y.png)"
	if err := report.WriteMarkdown(&md, &report.Report{Runs: runs, Chart: name}); err != nil {
		t.Fatal(err)
	}
	want := "![retrysim chart](out%20dir/a%29.png%0A%21%5Bx%5D%28http://127.0.0.1:9/y.png%29)"
	if !strings.Contains(md.String(), want) {
		t.Errorf("markdown:\n%s\nwant the picture link %s", md.String(), want)
	}
}
