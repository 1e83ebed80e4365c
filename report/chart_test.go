package report_test

import (
	"bytes"
	"context"
	"errors"
	"image/png"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"gonum.org/v1/plot/cmpimg"

	"github.com/retrysim/retrysim/policies/policytest"
	"github.com/retrysim/retrysim/report"
	"github.com/retrysim/retrysim/scenarios"
	"github.com/retrysim/retrysim/scenarios/scenariotest"
	"github.com/retrysim/retrysim/simulator"
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
	t.Parallel()
	cases := []struct {
		name    string
		fixture string
		opts    report.ChartOptions
		ttls    []time.Duration
	}{
		{"timeline-by-event", "naive-flaky", report.ChartOptions{Chart: report.ChartTimeline}, nil},
		{"timeline-by-event-5m", "naive-flaky", report.ChartOptions{Chart: report.ChartTimeline, TTL: 5 * time.Minute}, nil},
		{"timeline-outage-log", "outage-disabled", report.ChartOptions{Chart: report.ChartTimeline, Log: true}, nil},
		{"ttl", "naive-flaky", report.ChartOptions{Chart: report.ChartTTL}, nil},
		// Three runs, one outage: each run's outage and disable moment are
		// drawn over its own rows only.
		{"timeline-three-outages", "outage-three", report.ChartOptions{Chart: report.ChartTimeline}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
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

// naiveDryRun runs policy under sc as a dry run, with a naive handler's
// effects added: every arrival the model answered 2xx processed the event
// once more, so the charts can mark the events processed again.
func naiveDryRun(t *testing.T, agg *report.Aggregator, policy string, sc scenarios.Scenario, events int, over time.Duration) {
	t.Helper()
	pol := policytest.Lookup(t, policy)
	processed := map[string]int{}
	sink := func(rec *simulator.Record) error {
		switch rec.Kind {
		case simulator.KindAttempt:
			if rec.Reached && rec.HandlerStatus/100 == 2 {
				processed[rec.EventID]++
			}
		case simulator.KindEnd:
			ids := slices.Sorted(maps.Keys(processed))
			for _, id := range ids {
				e := simulator.Record{Kind: simulator.KindEffects, Provider: rec.Provider, Policy: rec.Policy, Scenario: rec.Scenario, Seed: rec.Seed, EventID: id, Time: rec.Time, EffectsFacts: simulator.EffectsFacts{Effects: processed[id]}}
				if err := agg.Add(&e); err != nil {
					return err
				}
			}
			end := *rec // the record is lent: change a copy
			end.EffectsKnown = true
			return agg.Add(&end)
		}
		return agg.Add(rec)
	}
	cfg := simulator.Config{Policy: pol, Scenario: sc, DryRun: true, Events: events, Seed: 3, RunID: "golden", Sink: sink}
	if over > 0 {
		cfg.Over = over
	}
	if _, err := simulator.Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
}

// Charts of runs made here: restarts and events processed again, a run of
// 500 events, six providers' TTL curves, and the storm of an outage.
func TestRunChartsGolden(t *testing.T) {
	t.Parallel()
	restarts, err := scenarios.Decode("restarts.yaml", []byte(`name: restarts
faults:
  - {type: restart, at: [3m, 9m]}
  - {type: lost-response, probability: 0.4}
`))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		runs func(t *testing.T, agg *report.Aggregator)
		opts report.ChartOptions
		// check is what a person must see, beyond the golden picture.
		check func(t *testing.T, rep *report.Report)
	}{
		{"timeline-restarts-reprocessed", func(t *testing.T, agg *report.Aggregator) {
			naiveDryRun(t, agg, "stripe", restarts, 10, 10*time.Minute)
		}, report.ChartOptions{Chart: report.ChartTimeline}, func(t *testing.T, rep *report.Report) {
			if len(rep.Runs[0].Restarts) != 2 || len(rep.Runs[0].Offenders()) == 0 {
				t.Errorf("restarts %v, offenders %v: want 2 restarts and events processed again", rep.Runs[0].Restarts, rep.Runs[0].Offenders())
			}
		}},
		{"timeline-500-events", func(t *testing.T, agg *report.Aggregator) {
			naiveDryRun(t, agg, "stripe", scenariotest.Lookup(t, "outage"), 500, time.Hour)
		}, report.ChartOptions{Chart: report.ChartTimeline}, nil},
		{"storm-outage", func(t *testing.T, agg *report.Aggregator) {
			naiveDryRun(t, agg, "stripe", scenariotest.Lookup(t, "outage"), 500, time.Hour)
			naiveDryRun(t, agg, "shopify", scenariotest.Lookup(t, "outage"), 500, time.Hour)
		}, report.ChartOptions{Chart: report.ChartStorm}, func(t *testing.T, rep *report.Report) {
			if shopify := rep.Runs[1]; shopify.DisabledAt.IsZero() || len(shopify.OutageWindows) != 1 {
				t.Errorf("shopify outage: disabled at %v, outage windows %v; want both drawn", shopify.DisabledAt, shopify.OutageWindows)
			}
		}},
		{"ttl-six-providers", func(t *testing.T, agg *report.Aggregator) {
			for _, p := range []string{"stripe", "github", "shopify", "slack", "twilio", "discord"} {
				naiveDryRun(t, agg, p, scenariotest.Lookup(t, "flaky-network"), 40, 0)
			}
		}, report.ChartOptions{Chart: report.ChartTTL}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			agg := report.NewAggregator(report.WithTimeline(-1))
			defer agg.Close()
			c.runs(t, agg)
			rep := &report.Report{Runs: agg.Runs()}
			if c.check != nil {
				c.check(t, rep)
			}
			var buf bytes.Buffer
			if err := report.WriteChart(&buf, rep, report.FormatPNG, c.opts); err != nil {
				t.Fatal(err)
			}
			goldenPNG(t, c.name+".png", buf.Bytes())
		})
	}
}
