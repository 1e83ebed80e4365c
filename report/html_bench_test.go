package report_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/retrysim/retrysim/policies/policytest"
	"github.com/retrysim/retrysim/report"
	"github.com/retrysim/retrysim/scenarios/scenariotest"
	"github.com/retrysim/retrysim/simulator"
)

// loadProbe writes, once the page has loaded, how long it took from the
// start of navigation (ms), into the page the browser then prints.
const loadProbe = `<script>window.addEventListener("load", function () {
  var p = document.createElement("pre"); p.id = "loaded";
  p.textContent = "loaded=" + performance.now().toFixed(0) + " rows=" + document.querySelectorAll("#attempts tbody tr").length;
  document.body.appendChild(p);
});</script>`

// BenchmarkHTMLMillionEvents reports the size of the HTML report of a
// million-event dry run (stripe, flaky-network) and how long headless
// Chromium takes to load it, from navigation to the load event. It
// reports, and asserts only that the page loads: the goal is at most 2 MB
// and 2 s. Run it with -bench HTMLMillion -benchtime 1x (a run of a
// million events takes a while to make).
func BenchmarkHTMLMillionEvents(b *testing.B) {
	browser := chromium(b)
	pol := policytest.Lookup(b, "stripe")
	sc := scenariotest.Lookup(b, "flaky-network")
	agg := report.NewAggregator(report.WithTimeline(report.Keep(report.FormatHTML, false, false)), report.WithSpoolDir(b.TempDir()))
	defer agg.Close()
	if _, err := simulator.Run(context.Background(), simulator.Config{
		Policy: pol, Scenario: sc, DryRun: true, Events: 1_000_000, Seed: 1, RunID: "million", Sink: agg.Add,
	}); err != nil {
		b.Fatal(err)
	}
	rep := &report.Report{Runs: agg.Runs()}
	dir := b.TempDir()
	b.ResetTimer()
	for range b.N {
		var buf bytes.Buffer
		start := time.Now()
		if err := report.WriteHTML(&buf, rep, report.ChartOptions{}); err != nil {
			b.Fatal(err)
		}
		written := time.Since(start)
		page := strings.Replace(buf.String(), "</body>", loadProbe+"\n</body>", 1)
		file := filepath.Join(dir, "report.html")
		if err := os.WriteFile(file, []byte(page), 0o644); err != nil {
			b.Fatal(err)
		}
		// The first load of a fresh profile sets the profile up: the
		// second is the one reported.
		var dom []byte
		for range 2 {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			var err error
			dom, err = exec.CommandContext(ctx, browser, "--headless", "--no-sandbox", "--disable-gpu",
				"--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-dev-shm-usage",
				"--user-data-dir="+filepath.Join(dir, "profile"), "--dump-dom", "file://"+file).Output()
			cancel()
			if err != nil {
				b.Fatalf("chromium: %v", err)
			}
		}
		m := regexp.MustCompile(`<pre id="loaded">loaded=(\d+) rows=(\d+)</pre>`).FindSubmatch(dom)
		if m == nil {
			b.Fatal("the page did not load to its end")
		}
		loaded, _ := strconv.Atoi(string(m[1]))
		rows, _ := strconv.Atoi(string(m[2]))
		b.ReportMetric(float64(buf.Len())/1e6, "MB")
		b.ReportMetric(float64(loaded), "ms-to-load")
		b.ReportMetric(float64(rows), "table-rows")
		b.ReportMetric(float64(written.Milliseconds()), "ms-to-write")
	}
}
