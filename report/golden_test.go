package report_test

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/retrysim/retrysim/report"
	"github.com/retrysim/retrysim/report/advice"
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
	// The command's spelling of the settings the advice names: the goldens
	// are what retrysim report prints.
	return &report.Report{Runs: agg.Runs(), Timeline: timeline, Timeouts: timeouts, Spelling: advice.Flag}
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

// The verbose text report adds the TTL table, the response-time headroom
// and a sample of the events' attempts to the headline.
func TestVerboseTextGolden(t *testing.T) {
	for _, name := range []string{"naive-flaky", "outage-disabled"} {
		t.Run(name, func(t *testing.T) {
			rep := load(t, name, report.FormatText, false)
			rep.Verbose = true
			var buf bytes.Buffer
			if err := report.WriteText(&buf, rep); err != nil {
				t.Fatal(err)
			}
			golden(t, name+".verbose.txt", buf.Bytes())
			for _, want := range []string{"\n  timeline of ", "TTL  let through in this run"} {
				if !bytes.Contains(buf.Bytes(), []byte(want)) {
					t.Errorf("verbose report lacks %q", want)
				}
			}
		})
	}
}

// The headline fits a terminal: at most 30 lines a run, every line at most
// as wide as asked (120 by default), and the detail only with Verbose.
func TestHeadlineFitsTerminal(t *testing.T) {
	for _, name := range fixtures {
		for _, width := range []int{0, 80} {
			t.Run(fmt.Sprintf("%s/%d", name, width), func(t *testing.T) {
				rep := load(t, name, report.FormatText, false)
				rep.Width = width
				var buf bytes.Buffer
				if err := report.WriteText(&buf, rep); err != nil {
					t.Fatal(err)
				}
				limit := width
				if limit == 0 {
					limit = report.DefaultWidth
				}
				lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
				for _, l := range lines {
					if n := utf8.RuneCountInString(l); n > limit {
						t.Errorf("line of %d characters, over %d: %q", n, limit, l)
					}
				}
				if width == 0 {
					// One run's section, from its header to the next.
					for i, sec := range strings.Split(buf.String(), "\nretrysim · ") {
						if n := strings.Count(strings.Split(sec, "\n────")[0], "\n"); n > 30 {
							t.Errorf("run %d takes %d lines, over 30", i+1, n)
						}
					}
				}
				if strings.Contains(buf.String(), "timeline of the first") {
					t.Error("the headline shows the per-event timeline; that is for --verbose")
				}
			})
		}
	}
}
