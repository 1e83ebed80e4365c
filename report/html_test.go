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

	"github.com/retrysim/retrysim/policies"
	"github.com/retrysim/retrysim/report"
)

// chromium finds the headless browser the HTML report is tested in. CI
// installs Debian's chromium (.ci/run), so there the test never skips;
// elsewhere it skips only when no chromium is installed.
func chromium(t testing.TB) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") != "" {
		t.Fatal("chromium is not installed; .ci/run installs Debian's chromium package")
	}
	t.Skip("chromium is not installed (apt-get install chromium); CI runs this test")
	return ""
}

// probeHead is put first in the page's head, before the report's own
// script: it records every error and console.error the page meets.
const probeHead = `<script>
window.__errors = [];
window.addEventListener("error", function (e) { window.__errors.push("error: " + e.message); });
window.addEventListener("unhandledrejection", function (e) { window.__errors.push("rejection: " + e.reason); });
(function () { var ce = console.error; console.error = function () { window.__errors.push("console.error: " + Array.prototype.join.call(arguments, " ")); ce.apply(console, arguments); }; })();
</script>`

// probeTail runs after the report's script, as a person would: it types
// into the filter, counts the rows left, sorts by a column, and writes what
// it saw into the page, which the browser then prints (--dump-dom).
const probeTail = `<script>
(function () {
  var out = {};
  var rows = function () { return Array.prototype.filter.call(document.querySelectorAll("#attempts tbody tr"), function (r) { return !r.hidden; }); };
  out.before = rows().length;
  var input = document.getElementById("filter");
  input.value = "FILTER_WORD";
  input.dispatchEvent(new Event("input"));
  var left = rows();
  out.after = left.length;
  out.allMatch = left.every(function (r) { return r.textContent.indexOf("FILTER_WORD") >= 0; });
  out.shown = document.getElementById("shown").textContent;
  input.value = "";
  input.dispatchEvent(new Event("input"));
  var th = document.querySelectorAll("#attempts th")[3];
  th.click(); th.click();
  var first = rows()[0].cells[3].getAttribute("data-v"), last = rows()[rows().length - 1].cells[3].getAttribute("data-v");
  out.sortedDescending = parseFloat(first) >= parseFloat(last);
  out.svgs = document.querySelectorAll("figure.chart svg").length;
  out.errors = window.__errors;
  var pre = document.createElement("pre");
  pre.id = "probe";
  pre.textContent = "before=" + out.before + " after=" + out.after + " allMatch=" + out.allMatch +
    " sortedDescending=" + out.sortedDescending + " svgs=" + out.svgs + " errors=" + out.errors.length + " [" + out.errors.join(" | ") + "]";
  document.body.appendChild(pre);
})();
</script>`

// The HTML report opens in a real browser with no error, its table filters
// to the rows that match and sorts by a column, and it loads nothing.
func TestHTMLReportInChromium(t *testing.T) {
	t.Parallel()
	browser := chromium(t)
	rep := load(t, "naive-flaky", report.FormatHTML, false)
	var buf bytes.Buffer
	if err := report.WriteHTML(&buf, rep, report.ChartOptions{}); err != nil {
		t.Fatal(err)
	}
	page := buf.String()
	// Nothing from the network: no scripts, styles, images or frames by
	// address (the SVG namespace is a name, not a load).
	if m := regexp.MustCompile(`(?i)(src|href)\s*=\s*["']?\s*(https?:)?//|@import|url\(\s*["']?https?:`).FindString(page); m != "" {
		t.Errorf("the report loads from the network: %q", m)
	}
	word := rep.Runs[0].Offenders()[0] // an event id a person would paste
	probe := strings.Replace(page, "<head>", "<head>\n"+probeHead, 1)
	probe = strings.Replace(probe, "</body>", strings.ReplaceAll(probeTail, "FILTER_WORD", word)+"\n</body>", 1)
	dir := t.TempDir()
	file := filepath.Join(dir, "report.html")
	if err := os.WriteFile(file, []byte(probe), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, browser, "--headless", "--no-sandbox", "--disable-gpu",
		"--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-dev-shm-usage",
		"--user-data-dir="+filepath.Join(dir, "profile"), "--dump-dom", "file://"+file)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	dom, err := cmd.Output()
	if err != nil {
		t.Fatalf("chromium: %v\n%s", err, stderr.String())
	}
	m := regexp.MustCompile(`<pre id="probe">before=(\d+) after=(\d+) allMatch=(\w+) sortedDescending=(\w+) svgs=(\d+) errors=(\d+) \[(.*?)\]</pre>`).FindSubmatch(dom)
	if m == nil {
		t.Fatalf("the probe wrote no result: the page's script did not run to its end\n%s", stderr.String())
	}
	before, _ := strconv.Atoi(string(m[1]))
	after, _ := strconv.Atoi(string(m[2]))
	want, total := 0, 0
	for _, r := range rep.Runs {
		for ev, err := range r.Timelines() {
			if err != nil {
				t.Fatal(err)
			}
			total += len(ev.Attempts)
			if ev.ID == word {
				want = len(ev.Attempts)
			}
		}
	}
	if before != total {
		t.Errorf("%d rows shown before filtering, want all %d", before, total)
	}
	if after != want || string(m[3]) != "true" {
		t.Errorf("filtering on %s left %d rows (all matching: %s), want its %d attempts", word, after, m[3], want)
	}
	if string(m[4]) != "true" {
		t.Error("clicking a column twice did not sort it descending")
	}
	if n, _ := strconv.Atoi(string(m[5])); n != len(report.Charts()) {
		t.Errorf("%d charts inline, want %d", n, len(report.Charts()))
	}
	if string(m[6]) != "0" {
		t.Errorf("the page met errors: %s", m[7])
	}
}

// The HTML report states the same facts as the text report: the verdict,
// what to change and the TTL recommendation.
func TestHTMLReportSaysWhatTextSays(t *testing.T) {
	rep := load(t, "naive-flaky", report.FormatHTML, false)
	var buf bytes.Buffer
	if err := report.WriteHTML(&buf, rep, report.ChartOptions{}); err != nil {
		t.Fatal(err)
	}
	page := buf.String()
	if !strings.Contains(page, "Duplicates let through, by TTL") || !strings.Contains(page, "<td>3 in 2 · 14/15 ✗</td>") {
		t.Error("the HTML report of two runs lacks the side-by-side TTL table the text has")
	}
	if !strings.Contains(page, "<title>NOT IDEMPOTENT: ") {
		t.Error("the page title does not lead with the verdict")
	}
	// An attempt whose connection failed got no answer: no latency, not
	// 0 ms; and its time is since the run's start, not its event's.
	cell := regexp.MustCompile(`<td[^>]*>([^<]*)</td>`)
	failed, laterFirst := 0, 0
	for _, row := range strings.Split(page, "<tr>") {
		if !strings.Contains(row, "<td>connection_failed</td>") {
			continue
		}
		failed++
		cells := cell.FindAllStringSubmatch(row, -1)
		if latency := cells[8][1]; latency != "" {
			t.Errorf("an attempt whose connection failed shows latency %q", latency)
		}
		if cells[2][1] == "1" && cells[3][1] != "+0s" {
			laterFirst++
		}
	}
	if failed == 0 || laterFirst == 0 {
		t.Errorf("%d attempts whose connection failed in the table, %d of them first attempts after +0s: times are not since the run's start", failed, laterFirst)
	}
	for _, r := range rep.Runs {
		for _, want := range []string{"NOT IDEMPOTENT", "recommend " + policies.FormatDuration(r.TTL(rep.TTLs).Recommended), "What to change", r.Offenders()[0]} {
			if !strings.Contains(page, want) {
				t.Errorf("%s: the HTML report lacks %q", r.Policy, want)
			}
		}
	}
}

// A dry run measured no response time: its attempts show no latency in
// the HTML table, not 0 ms, as the text says "not measured".
func TestHTMLDryRunShowsNoLatency(t *testing.T) {
	rep := modelRun(t, "stripe", "flaky-network", 10, report.WithTimeline(-1))
	var buf bytes.Buffer
	if err := report.WriteHTML(&buf, rep, report.ChartOptions{}); err != nil {
		t.Fatal(err)
	}
	cell := regexp.MustCompile(`<td[^>]*>([^<]*)</td>`)
	rows := 0
	for _, row := range strings.Split(buf.String(), "<tr>") {
		cells := cell.FindAllStringSubmatch(row, -1)
		if len(cells) != 12 || cells[0][1] != "stripe" {
			continue
		}
		rows++
		if latency := cells[8][1]; latency != "" {
			t.Errorf("attempt %s of %s of a dry run shows latency %q", cells[2][1], cells[1][1], latency)
		}
	}
	if rows != rep.Runs[0].Attempts {
		t.Errorf("%d attempt rows, want %d", rows, rep.Runs[0].Attempts)
	}
}
