package main

import (
	"io"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/retrysim/retrysim/policies/policytest"
	"github.com/retrysim/retrysim/simulator"
	"github.com/retrysim/retrysim/simulator/benchref"
)

// BenchmarkModelCLI compares model mode through the command line (`run
// --dry-run` with its redaction, sinks and report) with the bare
// binary-heap loop of simulator's BenchmarkModel, by turns: one command
// and one loop per iteration, each pair's ratio the loop's CPU time over
// the command's. The goal is a median of at least 0.75. The command runs
// with the heap floor main gives it.
func BenchmarkModelCLI(b *testing.B) {
	const events = 1_000_000 // the size the goal was measured at: 16 M attempts
	p := policytest.Lookup(b, "stripe")
	attempts := events * p.MaxAttempts()
	args := []string{"run", "--provider", "stripe", "--scenario", "black-hole", "--dry-run",
		"--events", strconv.Itoa(events), "--over", "1m"}
	var out strings.Builder
	cli := func(b *testing.B) {
		out.Reset()
		if code := run(args, strings.NewReader(""), &out, io.Discard); code != exitOK {
			b.Fatalf("exit %d", code)
		}
	}
	delays := p.Delays()
	bare := func(b *testing.B) {
		if n := benchref.BareHeap(delays, events, time.Minute, simulator.DefaultStart()); n != attempts {
			b.Fatalf("popped %d, want %d", n, attempts)
		}
	}
	floor := newHeapFloor() // as main paces the collector
	defer runtime.KeepAlive(floor)
	cli(b) // the first run warms what every later one reuses
	if !strings.Contains(out.String(), strconv.Itoa(attempts)) {
		b.Fatalf("the report does not count %d attempts:\n%s", attempts, out.String())
	}
	b.Run("ratio", func(b *testing.B) {
		var pairs benchref.Pairs
		for b.Loop() {
			t0 := benchref.CPUTime()
			cli(b)
			t1 := benchref.CPUTime()
			bare(b)
			pairs.AddTimes(benchref.CPUTime()-t1, t1-t0)
		}
		pairs.Report(b, "bare/cli")
	})
}
