package report_test

import (
	"bytes"
	"errors"
	"image/png"
	"os"
	"path/filepath"
	"testing"
	"time"

	"gonum.org/v1/plot/cmpimg"

	"github.com/retrysim/retrysim/report"
)

// pngTolerance is how far a rendered chart may drift from its golden
// (cmpimg's normalised delta): enough for anti-aliasing differences
// between platforms, far too little for a missing series, legend or label.
const pngTolerance = 0.02

// goldenPNG compares a chart with testdata/golden/file within
// pngTolerance, or rewrites it with -update.
func goldenPNG(t *testing.T, file string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", "golden", file)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./report -update to create it)", err)
	}
	ok, err := cmpimg.EqualApprox("png", got, want, pngTolerance)
	if err != nil {
		t.Fatal(err)
	}
	if !ok {
		bad := filepath.Join(t.TempDir(), file)
		_ = os.WriteFile(bad, got, 0o644)
		t.Errorf("%s differs from the golden chart (this run's chart: %s); run go test ./report -update and look at both", path, bad)
	}
}

func TestChartsGolden(t *testing.T) {
	cases := []struct {
		name    string
		fixture string
		opts    report.ChartOptions
		ttls    []time.Duration
	}{
		{"timeline-by-event", "naive-flaky", report.ChartOptions{Chart: report.ChartTimeline}, nil},
		{"timeline-by-provider-5m", "naive-flaky", report.ChartOptions{Chart: report.ChartTimeline, By: report.ByProvider, TTL: 5 * time.Minute}, nil},
		{"timeline-outage-log", "outage-disabled", report.ChartOptions{Chart: report.ChartTimeline, Log: true}, nil},
		{"ttl", "naive-flaky", report.ChartOptions{Chart: report.ChartTTL}, nil},
		// Three runs, one outage: each run's outage and disable moment are
		// drawn over its own row only.
		{"timeline-three-outages", "outage-three", report.ChartOptions{Chart: report.ChartTimeline, By: report.ByProvider}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rep := load(t, c.fixture, report.FormatPNG, true)
			rep.TTLs = c.ttls
			var buf bytes.Buffer
			if err := report.WriteChart(&buf, rep, report.FormatPNG, c.opts); err != nil {
				t.Fatal(err)
			}
			img, err := png.Decode(bytes.NewReader(buf.Bytes()))
			if err != nil {
				t.Fatal(err)
			}
			if b := img.Bounds(); b.Dx() != 1600 || b.Dy() != 900 {
				t.Errorf("chart is %dx%d, want 1600x900", b.Dx(), b.Dy())
			}
			goldenPNG(t, c.name+".png", buf.Bytes())
		})
	}
}

func TestSchedulesChartGolden(t *testing.T) {
	h := time.Hour
	schedules := []report.Schedule{
		{Name: "stripe", Offsets: []time.Duration{0, 5 * time.Minute, h, 6 * h, 24 * h, 72 * h}, Manual: 30 * 24 * h},
		{Name: "github", Offsets: []time.Duration{0, time.Minute, 10 * time.Minute, h, 8 * h}, Manual: 72 * h},
		{Name: "slack", Offsets: []time.Duration{0, time.Second, 31 * time.Second, 331 * time.Second}},
		{Name: "discord", Offsets: []time.Duration{0}},
	}
	var buf bytes.Buffer
	if err := report.WriteSchedulesChart(&buf, report.FormatPNG, schedules, report.ChartOptions{}); err != nil {
		t.Fatal(err)
	}
	goldenPNG(t, "schedules.png", buf.Bytes())
}

func TestSVGChart(t *testing.T) {
	rep := load(t, "naive-flaky", report.FormatSVG, true)
	var buf bytes.Buffer
	if err := report.WriteChart(&buf, rep, report.FormatSVG, report.ChartOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"<svg", "stripe, shopify · flaky-network · seed 1", "delivered (2xx in time)"} {
		if !bytes.Contains(buf.Bytes(), []byte(want)) {
			t.Errorf("SVG chart lacks %q", want)
		}
	}
}

func TestChartErrors(t *testing.T) {
	rep := load(t, "naive-flaky", report.FormatPNG, true)
	var buf bytes.Buffer
	if err := report.WriteChart(&buf, rep, "gif", report.ChartOptions{}); !errors.Is(err, report.ErrFormat) {
		t.Errorf("gif: err = %v, want ErrFormat", err)
	}
	if err := report.WriteChart(&buf, rep, report.FormatPNG, report.ChartOptions{Chart: "pie"}); !errors.Is(err, report.ErrFormat) {
		t.Errorf("pie chart: err = %v, want ErrFormat", err)
	}
	if err := report.WriteChart(&buf, &report.Report{}, report.FormatPNG, report.ChartOptions{}); !errors.Is(err, report.ErrNoData) {
		t.Errorf("empty report: err = %v, want ErrNoData", err)
	}
}
