package report_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/retrysim/retrysim/report"
)

var update = flag.Bool("update", false, "rewrite the golden files from the current output")

// fixtures are committed results streams (written once by `retrysim run
// --results`), so the reports built from them are byte-for-byte stable:
// latencies measured live would differ on every run.
var fixtures = []string{
	"naive-flaky",       // stripe and shopify side by side, naive demo handler: duplicates, effects, verdicts
	"outage-disabled",   // shopify in an outage until the endpoint is disabled (dry run)
	"forged-unverified", // stripe, github and discord under forged, unverified demo handler: the signature check
	"slow-handler",      // stripe against a handler sleeping 4 s on every 4th request: the latency headroom
}

// timeouts stand for the policy catalogue's in the golden reports: a
// fixed list, so that the goldens do not change with the catalogue.
var timeouts = []report.Timeout{
	{Policy: "discord", Timeout: 3 * time.Second}, {Policy: "slack", Timeout: 3 * time.Second},
	{Policy: "shopify-2024", Timeout: 5 * time.Second}, {Policy: "github", Timeout: 10 * time.Second},
	{Policy: "stripe", Timeout: 30 * time.Second}, {Policy: "shopify", Timeout: 30 * time.Second},
}

// load aggregates a fixture the way `retrysim report` does for format.
func load(t *testing.T, name, format string, chart bool) *report.Report {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name+".jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	keep := report.Keep(format, chart, false)
	agg := report.NewAggregator(report.WithTimeline(keep))
	if err := report.ReadJSONL(f, agg.Add); err != nil {
		t.Fatal(err)
	}
	timeline := 0
	if keep != 0 {
		timeline = report.DefaultTimeline
	}
	return &report.Report{Runs: agg.Runs(), Timeline: timeline, Timeouts: timeouts}
}

// golden compares got with testdata/golden/file, or rewrites it with
// -update.
func golden(t *testing.T, file string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", "golden", file)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./report -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file; run go test ./report -update and review the diff\n--- got:\n%s", path, got)
	}
}

func TestTextFormatsGolden(t *testing.T) {
	exts := map[string]string{report.FormatText: "txt", report.FormatJSON: "json", report.FormatMarkdown: "md", report.FormatCSV: "csv"}
	for _, name := range fixtures {
		for _, format := range []string{report.FormatText, report.FormatMarkdown, report.FormatJSON, report.FormatCSV} {
			t.Run(name+"/"+format, func(t *testing.T) {
				var buf bytes.Buffer
				if err := report.Write(&buf, load(t, name, format, false), format); err != nil {
					t.Fatal(err)
				}
				golden(t, name+"."+exts[format], buf.Bytes())
			})
		}
	}
}

func TestTTLReportGolden(t *testing.T) {
	writers := map[string]func(*bytes.Buffer, *report.Report) error{
		"txt": func(b *bytes.Buffer, r *report.Report) error { return report.WriteTTLText(b, r) },
		"md":  func(b *bytes.Buffer, r *report.Report) error { return report.WriteTTLMarkdown(b, r) },
	}
	for ext, write := range writers {
		t.Run(ext, func(t *testing.T) {
			rep := load(t, "naive-flaky", report.FormatText, false)
			rep.TTLs = []time.Duration{5 * time.Minute, time.Hour, 24 * time.Hour, 72 * time.Hour, 7 * 24 * time.Hour, 30 * 24 * time.Hour}
			var buf bytes.Buffer
			if err := write(&buf, rep); err != nil {
				t.Fatal(err)
			}
			golden(t, "ttl-naive-flaky."+ext, buf.Bytes())
		})
	}
}

// The markdown report shows the chart that --out wrote.
func TestMarkdownLinksChart(t *testing.T) {
	rep := load(t, "naive-flaky", report.FormatMarkdown, true)
	rep.Chart = "timeline.png"
	var buf bytes.Buffer
	if err := report.WriteMarkdown(&buf, rep); err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(buf.Bytes(), []byte("![retrysim chart](timeline.png)")) {
		t.Errorf("markdown does not show the chart:\n%s", buf.Bytes())
	}
}
