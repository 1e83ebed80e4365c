//go:build linux

package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// BenchmarkReportCommand reads a one-million-event results stream back
// with `retrysim report FILE`, as a process of its own, the way a user
// does: the stream is written once by `retrysim run --provider stripe
// --scenario flaky-network --dry-run --events 1000000 --results FILE`,
// as JSON Lines (jsonl, about 800 MB) and as Zstandard (zst). For each it
// reports the JSON Lines' megabytes (10⁶ bytes) read per second of the
// report's wall time (MB/s) and of its CPU time, user and system
// (cpu-MB/s). The goal is at least 200 MB/s for the JSON Lines.
// BenchmarkReadBack measures the same reading inside the process, on a
// smaller stream.
//
// Writing the streams takes about fifteen seconds before the first
// measurement: run it alone, with -bench ReportCommand -benchtime 3x.
func BenchmarkReportCommand(b *testing.B) {
	bin := buildBinary(b)
	dir := b.TempDir()
	var jsonlSize int64
	for _, name := range []string{"s.jsonl", "s.jsonl.zst"} {
		path := filepath.Join(dir, name)
		cmd := exec.Command(bin, "run", "--provider", "stripe", "--scenario", "flaky-network", "--dry-run",
			"--events", "1000000", "--results", path)
		if out, err := cmd.CombinedOutput(); !verdictExit(err) {
			b.Fatalf("%v\n%s", err, out)
		}
		if name == "s.jsonl" {
			fi, err := os.Stat(path)
			if err != nil {
				b.Fatal(err)
			}
			jsonlSize = fi.Size()
		}
	}
	// The kernel writes the streams' 900 MB out to disk in the background
	// for seconds after they are written, on the same cores as the reads
	// timed next: wait until it has.
	syscall.Sync()
	for _, name := range []string{"s.jsonl", "s.jsonl.zst"} {
		path := filepath.Join(dir, name)
		b.Run(filepath.Ext(name)[1:], func(b *testing.B) {
			var wall, cpu time.Duration
			for b.Loop() {
				cmd := exec.Command(bin, "report", path)
				t0 := time.Now()
				out, err := cmd.CombinedOutput()
				wall += time.Since(t0)
				if !verdictExit(err) {
					b.Fatalf("%v\n%s", err, out)
				}
				ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
				cpu += time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
			}
			mb := float64(jsonlSize) * float64(b.N) / 1e6
			b.ReportMetric(mb/wall.Seconds(), "MB/s")
			b.ReportMetric(mb/cpu.Seconds(), "cpu-MB/s")
		})
	}
}

// verdictExit reports whether a command ended well: exit 0, or exit 1, a
// --fail-on gate that failed (one set in the environment or a config
// file): a verdict, not a failure to run.
func verdictExit(err error) bool {
	var ee *exec.ExitError
	return err == nil || (errors.As(err, &ee) && ee.ExitCode() == 1)
}
