package output_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/retrysim/retrysim/report"
	"github.com/retrysim/retrysim/report/advice"
	"github.com/retrysim/retrysim/report/output"
	"github.com/retrysim/retrysim/report/redact"
)

// load aggregates one of report's fixtures as plan asks.
func load(t *testing.T, name string, p *output.Plan) *report.Report {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "testdata", name+".jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	agg := report.NewAggregator(report.WithTimeline(p.Keep), report.WithTTLs(p.TTLs))
	t.Cleanup(func() { agg.Close() })
	if err := report.ReadJSONL(f, agg.Add); err != nil {
		t.Fatal(err)
	}
	return &report.Report{Runs: agg.Runs(), TTLs: p.TTLs, Timeline: p.Timeline(), Spelling: advice.Flag}
}

func plan(t *testing.T, format string, files ...string) *output.Plan {
	t.Helper()
	p, errs := output.Request{Format: format, Files: files, Chart: report.ChartTimeline, By: report.ByEvent}.Plan(advice.Flag)
	if len(errs) != 0 {
		t.Fatal(errs)
	}
	return p
}

// TestWriteEachFileInItsFormat: each file holds the report in the format
// its name says, the Markdown links the picture drawn first, the secret is
// redacted from the files, and stdout gets the report in the plan's format,
// exactly as report.Write writes it.
func TestWriteEachFileInItsFormat(t *testing.T) {
	dir := t.TempDir()
	md, js, svg := filepath.Join(dir, "r.md"), filepath.Join(dir, "r.json"), filepath.Join(dir, "storm.svg")
	p := plan(t, report.FormatCSV, md, js, svg)
	// The fixture's scenario name stands in for a secret that got into the
	// report.
	p.Secrets = &redact.Set{}
	p.Secrets.Add("flaky-network")
	rep := load(t, "naive-flaky", p)
	var stdout bytes.Buffer
	if err := p.Write(&stdout, rep); err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	if err := report.Write(&want, rep, report.FormatCSV); err != nil {
		t.Fatal(err)
	}
	if stdout.String() != want.String() {
		t.Errorf("stdout is not the CSV report:\n%s", stdout.String())
	}
	pic, err := os.ReadFile(svg)
	if err != nil || !bytes.Contains(pic, []byte("<svg")) {
		t.Fatalf("storm.svg: %v, %.40q", err, pic)
	}
	text, err := os.ReadFile(md)
	if err != nil || !bytes.Contains(text, []byte("storm.svg")) {
		t.Errorf("r.md does not show the chart: %v\n%s", err, text)
	}
	raw, err := os.ReadFile(js)
	if err != nil || !json.Valid(raw) {
		t.Fatalf("r.json is not JSON: %v", err)
	}
	for _, path := range []string{md, js} {
		if b, _ := os.ReadFile(path); bytes.Contains(b, []byte("flaky-network")) {
			t.Errorf("%s holds the secret", path)
		}
	}
}

// TestOneFailedOutputDoesNotStopTheOthers: a file that cannot be written
// is named in the error, and the other file and stdout are written all
// the same.
func TestOneFailedOutputDoesNotStopTheOthers(t *testing.T) {
	dir := t.TempDir()
	gone, kept := filepath.Join(dir, "gone", "r.md"), filepath.Join(dir, "r.txt")
	if err := os.Mkdir(filepath.Dir(gone), 0o755); err != nil {
		t.Fatal(err)
	}
	p := plan(t, report.FormatText, gone, kept)
	// The folder goes between the check and the write (a full disk would
	// do as well).
	if err := os.Remove(filepath.Dir(gone)); err != nil {
		t.Fatal(err)
	}
	var stdout bytes.Buffer
	err := p.Write(&stdout, load(t, "naive-flaky", p))
	if err == nil || !strings.HasPrefix(err.Error(), "--out "+gone+": ") {
		t.Fatalf("error %v, want one naming --out %s", err, gone)
	}
	if _, serr := os.Stat(kept); serr != nil || stdout.Len() == 0 {
		t.Errorf("the other outputs were not written: %v, %d bytes to stdout", serr, stdout.Len())
	}
}

// TestChartWithNothingToDrawIsNoted: a picture of runs that sent nothing
// is not written, which is said, and is no failure.
func TestChartWithNothingToDrawIsNoted(t *testing.T) {
	pic := filepath.Join(t.TempDir(), "timeline.png")
	p := plan(t, report.FormatText, pic)
	var notes bytes.Buffer
	p.Notes = &notes
	if err := p.Write(nil, &report.Report{}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(pic); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("%s written: %v", pic, err)
	}
	if !strings.HasPrefix(notes.String(), "retrysim: --out "+pic+": not written: ") {
		t.Errorf("notes %q", notes.String())
	}
}

// TestJUnitReportsTheGates: WriteJUnit writes the gates as JUnit XML to
// stdout, and the files as Write does.
func TestJUnitReportsTheGates(t *testing.T) {
	txt := filepath.Join(t.TempDir(), "r.txt")
	p := plan(t, report.FormatText, txt)
	rep := load(t, "naive-flaky", p)
	gates, err := report.ParseGates([]string{"lost-events"})
	if err != nil {
		t.Fatal(err)
	}
	rep.Gates = report.CheckGates(rep.Runs, gates, report.GateOptions{})
	var stdout bytes.Buffer
	if err := p.WriteJUnit(&stdout, rep); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stdout.String(), "<testsuite") || !strings.Contains(stdout.String(), "lost-events") {
		t.Errorf("stdout is not the gates' JUnit:\n%s", stdout.String())
	}
	if _, err := os.Stat(txt); err != nil {
		t.Error(err)
	}
}
