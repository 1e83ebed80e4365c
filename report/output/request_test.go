package output_test

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/retrysim/retrysim/report"
	"github.com/retrysim/retrysim/report/advice"
	"github.com/retrysim/retrysim/report/output"
)

// TestPlanRefusesEveryProblemAtOnce: each bad setting is refused in one
// error of its own, named as the caller spells it.
func TestPlanRefusesEveryProblemAtOnce(t *testing.T) {
	dir := t.TempDir()
	twice := filepath.Join(dir, "r.md")
	r := output.Request{
		Format: "yaml",
		Files:  []string{twice, twice, filepath.Join(dir, "r.docx")},
		Chart:  "pie",
		By:     report.ByProvider,
		TTLs:   "5m,soon",
	}
	_, errs := r.Plan(advice.Flag)
	want := []string{"--format: ", "--out: " + twice + " is named twice", "--out: ", "--chart: \"pie\" is not a chart", "--by provider: no longer drawn", "--ttl: "}
	if len(errs) != len(want) {
		t.Fatalf("got %d errors, want %d: %v", len(errs), len(want), errs)
	}
	for _, w := range want {
		found := false
		for _, err := range errs {
			found = found || strings.HasPrefix(err.Error(), w)
		}
		if !found {
			t.Errorf("no error starts %q: %v", w, errs)
		}
	}
	// Without a spelling, the settings are named the Go way.
	_, errs = output.Request{Format: report.FormatText, Chart: report.ChartTimeline, By: "hour"}.Plan(nil)
	if len(errs) != 1 || !strings.HasPrefix(errs[0].Error(), string(report.SettingBy)+": \"hour\"") {
		t.Errorf("errors %v, want one naming %s", errs, report.SettingBy)
	}
}

// TestPlanKeepsForTheMostDemandingOutput: the aggregator keeps every
// timeline when any output lists every event (JSON), and the formats come
// from the files' names.
func TestPlanKeepsForTheMostDemandingOutput(t *testing.T) {
	dir := t.TempDir()
	base := output.Request{Format: report.FormatText, Chart: report.ChartTimeline, By: report.ByEvent}
	text, errs := base.Plan(nil)
	if len(errs) != 0 {
		t.Fatal(errs)
	}
	withJSON := base
	withJSON.Files = []string{filepath.Join(dir, "r.json"), filepath.Join(dir, "storm.svg")}
	p, errs := withJSON.Plan(nil)
	if len(errs) != 0 {
		t.Fatal(errs)
	}
	if want := report.Keep(report.FormatJSON, false, false); p.Keep != want || text.Keep == want {
		t.Errorf("keep %d with a JSON file (want %d), %d for text alone", p.Keep, want, text.Keep)
	}
	if p.Files[0].Format != report.FormatJSON || p.Files[1].Format != report.FormatSVG {
		t.Errorf("files %+v", p.Files)
	}
	if text.Timeline() != report.DefaultTimeline {
		t.Errorf("text timeline %d, want %d", text.Timeline(), report.DefaultTimeline)
	}
	noTimeline := base
	noTimeline.NoTimeline = true
	if p, _ := noTimeline.Plan(nil); p.Timeline() != 0 {
		t.Errorf("timeline %d with NoTimeline", p.Timeline())
	}
}

// TestConfiguredTTLIsCompared: the handler's TTL joins the choices, and
// the timeline chart draws it unless choices were given.
func TestConfiguredTTLIsCompared(t *testing.T) {
	p := &output.Plan{}
	p.AddConfiguredTTL(36 * time.Hour)
	if p.Chart.TTL != 36*time.Hour || len(p.TTLs) == 0 {
		t.Errorf("chart TTL %s, TTLs %v", p.Chart.TTL, p.TTLs)
	}
	p = &output.Plan{TTLs: []time.Duration{time.Hour}, Chart: report.ChartOptions{TTL: time.Hour}}
	p.AddConfiguredTTL(36 * time.Hour)
	if p.Chart.TTL != time.Hour || len(p.TTLs) != 2 {
		t.Errorf("chart TTL %s, TTLs %v: want the given 1h drawn and both compared", p.Chart.TTL, p.TTLs)
	}
}

// TestChartFor: a picture's name picks its chart, whatever its case and
// folder; any other name draws the chart asked for.
func TestChartFor(t *testing.T) {
	for _, c := range []struct{ path, want string }{
		{"storm.png", report.ChartStorm},
		{"out/Storm-stripe.svg", report.ChartStorm},
		{"ttl.svg", report.ChartTTL},
		{"picture.png", report.ChartTimeline},
		{"storm/picture.png", report.ChartTimeline},
	} {
		if got := output.ChartFor(c.path, report.ChartTimeline); got != c.want {
			t.Errorf("ChartFor(%s) = %s, want %s", c.path, got, c.want)
		}
	}
}

// TestFilesTheWriterCannotWrite: a writer of some formats refuses a file
// in another, naming itself, and still takes pictures.
func TestFilesTheWriterCannotWrite(t *testing.T) {
	dir := t.TempDir()
	files, errs := output.Files([]string{filepath.Join(dir, "t.csv"), filepath.Join(dir, "t.png")}, "ttl", report.TTLFormats(), advice.Flag)
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), "is csv; ttl writes ") {
		t.Errorf("errors %v, want the csv refused", errs)
	}
	if len(files) != 1 || files[0].Format != report.FormatPNG {
		t.Errorf("files %+v, want the png", files)
	}
}
