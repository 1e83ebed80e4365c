package report_test

import (
	"context"
	"testing"

	"github.com/retrysim/retrysim/policies"
	"github.com/retrysim/retrysim/policies/policytest"
	"github.com/retrysim/retrysim/report"
	"github.com/retrysim/retrysim/scenarios"
	"github.com/retrysim/retrysim/scenarios/scenariotest"
	"github.com/retrysim/retrysim/simulator"
)

// writeCounter is a destination that keeps nothing and counts the writes
// made to it: each would be a write(2) to a file or a pipe.
type writeCounter struct{ writes, bytes int64 }

func (w *writeCounter) Write(p []byte) (int, error) {
	w.writes++
	w.bytes += int64(len(p))
	return len(p), nil
}

// formatWriters are the report's formats, each written the way the
// command writes it, and the results stream of recs written record by
// record.
func formatWriters(rep *report.Report, recs []simulator.Record) map[string]func(*writeCounter) error {
	ws := map[string]func(*writeCounter) error{
		report.FormatHTML:  func(w *writeCounter) error { return report.WriteHTML(w, rep, report.ChartOptions{}) },
		report.FormatJUnit: func(w *writeCounter) error { return report.WriteJUnit(w, rep) },
	}
	for _, f := range report.Formats() {
		if _, ok := ws[f]; !ok {
			ws[f] = func(w *writeCounter) error { return report.Write(w, rep, f) }
		}
	}
	for _, f := range []string{report.FormatPNG, report.FormatSVG} {
		ws[f] = func(w *writeCounter) error { return report.WriteChart(w, rep, f, report.ChartOptions{}) }
	}
	ws["jsonl"] = func(w *writeCounter) error {
		jw := report.NewJSONLWriter(w)
		for i := range recs {
			if err := jw.Add(&recs[i]); err != nil {
				return err
			}
		}
		return jw.Flush()
	}
	return ws
}

// formatsReport is the report of a dry run of events Stripe events under
// flaky-network, every event's attempts kept (as CSV, HTML and the charts
// keep them), and the run's records for the results stream.
func formatsReport(tb testing.TB, events int) (*report.Report, []simulator.Record) {
	tb.Helper()
	p := policytest.Lookup(tb, "stripe")
	sc := scenariotest.Lookup(tb, "flaky-network")
	agg := report.NewAggregator(report.WithTimeline(-1), report.WithSpoolDir(tb.TempDir()))
	tb.Cleanup(func() { agg.Close() })
	var recs []simulator.Record
	sink := func(r *simulator.Record) error {
		recs = append(recs, *r)
		return agg.Add(r)
	}
	if _, err := simulator.Run(context.Background(), simulator.Config{
		Policy: p, Scenario: sc, DryRun: true, Events: events, Seed: 1, RunID: "formats", Sink: sink,
	}); err != nil {
		tb.Fatal(err)
	}
	return &report.Report{Runs: agg.Runs()}, recs
}

// BenchmarkFormats writes the report of 100,000 Stripe events under
// flaky-network in every format, and its results stream, to a destination
// that counts the writes made to it. Beside the time and the bytes
// (MB/s), it reports writes/op, each a write(2) to a file or a pipe, and
// B/write: an unbuffered writer makes one per token, and a report of a
// few megabytes then spends seconds in the kernel. Run it with -benchtime
// 3x; making the report takes a while.
func BenchmarkFormats(b *testing.B) {
	rep, recs := formatsReport(b, 100_000)
	ws := formatWriters(rep, recs)
	for _, f := range []string{"text", "json", "markdown", "csv", "html", "junit", "png", "svg", "jsonl"} {
		write, ok := ws[f]
		if !ok {
			b.Fatalf("no writer for %s", f)
		}
		b.Run(f, func(b *testing.B) {
			var last writeCounter
			for b.Loop() {
				last = writeCounter{}
				if err := write(&last); err != nil {
					b.Fatal(err)
				}
			}
			b.SetBytes(last.bytes)
			b.ReportMetric(float64(last.writes), "writes/op")
			b.ReportMetric(float64(last.bytes)/float64(max(last.writes, 1)), "B/write")
		})
	}
}

// TestEveryFormatWritesInBlocks holds what BenchmarkFormats measures: every
// report format, the results stream and the policies and scenarios lists
// reach their file or pipe in writes of at least 4 KiB on average (one
// write when the whole is smaller), not a write(2) per line or token.
func TestEveryFormatWritesInBlocks(t *testing.T) {
	rep, recs := formatsReport(t, 2_000)
	ws := formatWriters(rep, recs)
	ws["ttl text"] = func(w *writeCounter) error { return report.WriteTTL(w, rep, report.FormatText) }
	ws["ttl markdown"] = func(w *writeCounter) error { return report.WriteTTL(w, rep, report.FormatMarkdown) }
	all := policies.Default().All()
	for _, f := range report.PolicyFormats() {
		ws["policies "+f] = func(w *writeCounter) error { return report.WritePolicies(w, all, f, true) }
	}
	ws["scenarios"] = func(w *writeCounter) error { return report.WriteScenarios(w, scenarios.List(nil), "") }
	for name, write := range ws {
		var w writeCounter
		if err := write(&w); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if w.bytes == 0 {
			t.Fatalf("%s: wrote nothing", name)
		}
		if most := w.bytes/4096 + 1; w.writes > most {
			t.Errorf("%s: %d bytes in %d writes (%d B a write); want at most %d", name, w.bytes, w.writes, w.bytes/w.writes, most)
		}
	}
}
