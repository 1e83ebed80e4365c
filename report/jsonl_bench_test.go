package report

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/retrysim/retrysim/policies/policytest"
	"github.com/retrysim/retrysim/scenarios/scenariotest"
	"github.com/retrysim/retrysim/simulator"
	"github.com/retrysim/retrysim/simulator/benchref"
)

// flakyStream is the results stream of a Stripe flaky-network dry run of
// events events, as `run --results` writes it.
func flakyStream(b *testing.B, events int) []byte {
	b.Helper()
	p := policytest.Lookup(b, "stripe")
	sc := scenariotest.Lookup(b, "flaky-network")
	var buf bytes.Buffer
	w := NewJSONLWriter(&buf)
	if _, err := simulator.Run(context.Background(), simulator.Config{Policy: p, Scenario: sc, DryRun: true,
		Events: events, Over: time.Hour, Sink: w.Add}); err != nil {
		b.Fatal(err)
	}
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	return buf.Bytes()
}

// cpuRate reports MB of stream per second of the process's CPU time, when
// the function it returns is called at the end of b: on a shared machine
// the wall time's MB/s counts the time other processes held the cores.
func cpuRate(b *testing.B, size int) func() {
	cpu := benchref.CPUTime()
	return func() {
		if d := benchref.CPUTime() - cpu; d > 0 {
			b.ReportMetric(float64(size*b.N)/1e6/d.Seconds(), "cpu-MB/s")
		}
	}
}

// BenchmarkReadBack reads a results stream back into the aggregator, as
// `retrysim report` does, in MB/s of stream. "decode" is the stream's
// decoding alone; "ratio" runs ReadJSONL's decoder and encoding/json on
// the same lines by turns and reports the per-pair ratio of their times.
func BenchmarkReadBack(b *testing.B) {
	stream := flakyStream(b, 20_000)
	b.Run("report", func(b *testing.B) {
		b.SetBytes(int64(len(stream)))
		defer cpuRate(b, len(stream))()
		for b.Loop() {
			a := NewAggregator(WithSpoolDir(b.TempDir()))
			if err := ReadJSONL(bytes.NewReader(stream), a.Add); err != nil {
				b.Fatal(err)
			}
			a.Runs()
			a.Close()
		}
	})
	b.Run("decode", func(b *testing.B) {
		b.SetBytes(int64(len(stream)))
		defer cpuRate(b, len(stream))()
		for b.Loop() {
			if err := ReadJSONL(bytes.NewReader(stream), func(*simulator.Record) error { return nil }); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("ratio", func(b *testing.B) {
		lines := bytes.Split(bytes.TrimSpace(stream), []byte("\n"))
		d := simulator.NewRecordDecoder()
		var pairs benchref.Pairs
		var rec simulator.Record
		for b.Loop() {
			t0 := benchref.CPUTime()
			for _, l := range lines {
				if err := d.Decode(l, &rec); err != nil {
					b.Fatal(err)
				}
			}
			t1 := benchref.CPUTime()
			for _, l := range lines {
				rec = simulator.Record{}
				if err := json.Unmarshal(l, &rec); err != nil {
					b.Fatal(err)
				}
			}
			pairs.AddTimes(benchref.CPUTime()-t1, t1-t0)
		}
		pairs.Report(b, "json/decoder")
	})
}
