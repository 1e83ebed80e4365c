package report_test

import (
	"bytes"
	"io"
	"os"
	"testing"

	"github.com/retrysim/retrysim/report"
	"github.com/retrysim/retrysim/simulator"
)

// everyKind is a results stream with a record of every kind, each with
// every field its kind sets, as the Record of the version before the
// record was split by kind wrote it (testdata/contract/every-kind.jsonl).
const everyKind = "testdata/contract/every-kind.jsonl"

// TestStreamContractByteForByte: the JSON Lines contract does not move.
// The stream of every kind, read and written again, is the same bytes:
// every field of every kind survives the trip through the Go record, and
// is written in the same order and units. (The other committed streams
// were written by older versions, in another key order.)
func TestStreamContractByteForByte(t *testing.T) {
	for _, name := range []string{everyKind} {
		t.Run(name, func(t *testing.T) {
			want, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			var got bytes.Buffer
			w := report.NewJSONLWriter(&got)
			if err := report.ReadJSONL(bytes.NewReader(want), w.Add); err != nil {
				t.Fatal(err)
			}
			if err := w.Flush(); err != nil {
				t.Fatal(err)
			}
			g, x := bytes.Split(got.Bytes(), []byte("\n")), bytes.Split(want, []byte("\n"))
			for i := range min(len(g), len(x)) {
				if !bytes.Equal(g[i], x[i]) {
					t.Fatalf("line %d differs:\n got %s\nwant %s", i+1, g[i], x[i])
				}
			}
			if len(g) != len(x) {
				t.Fatalf("%d lines, want %d", len(g), len(x))
			}
		})
	}
}

// TestEveryWriterReadsEveryKind: every report writer takes a stream with
// a record of every kind, each with every field its kind sets, and writes
// something, without a failure.
func TestEveryWriterReadsEveryKind(t *testing.T) {
	f, err := os.Open(everyKind)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	agg := report.NewAggregator(report.WithTimeline(report.Keep(report.FormatPNG, true, true)))
	if err := report.ReadJSONL(f, agg.Add); err != nil {
		t.Fatal(err)
	}
	rep := &report.Report{Runs: agg.Runs(), Timeline: report.DefaultTimeline, Verbose: true}
	writers := map[string]func(io.Writer) error{
		"junit":        func(w io.Writer) error { return report.WriteJUnit(w, rep) },
		"ttl text":     func(w io.Writer) error { return report.WriteTTLText(w, rep) },
		"ttl markdown": func(w io.Writer) error { return report.WriteTTLMarkdown(w, rep) },
		"chart png":    func(w io.Writer) error { return report.WriteChart(w, rep, report.FormatPNG, report.ChartOptions{}) },
		"chart svg":    func(w io.Writer) error { return report.WriteChart(w, rep, report.FormatSVG, report.ChartOptions{}) },
		"chart ttl svg": func(w io.Writer) error {
			return report.WriteChart(w, rep, report.FormatSVG, report.ChartOptions{Chart: report.ChartTTL})
		},
		"chart storm svg": func(w io.Writer) error {
			return report.WriteChart(w, rep, report.FormatSVG, report.ChartOptions{Chart: report.ChartStorm})
		},
	}
	for _, format := range report.Formats() {
		if !report.IsChart(format) {
			writers[format] = func(w io.Writer) error { return report.Write(w, rep, format) }
		}
	}
	for name, write := range writers {
		t.Run(name, func(t *testing.T) {
			var b bytes.Buffer
			if err := write(&b); err != nil {
				t.Fatal(err)
			}
			if b.Len() == 0 {
				t.Fatal("wrote nothing")
			}
		})
	}
	f2, err := os.Open(everyKind)
	if err != nil {
		t.Fatal(err)
	}
	defer f2.Close()
	kinds := map[string]bool{}
	if err := report.ReadJSONL(f2, func(r *simulator.Record) error { kinds[r.Kind] = true; return nil }); err != nil {
		t.Fatal(err)
	}
	for _, k := range simulator.Kinds() {
		if !kinds[k] {
			t.Errorf("the stream has no %s record", k)
		}
	}
}
