//go:build linux

package main

import (
	"os/exec"
	"strconv"
	"syscall"
	"testing"
)

// BenchmarkDryRunMemory runs `retrysim run --provider stripe --scenario S
// --dry-run --events N` (the default --over) as a process of its own, for
// S black-hole, outage and flaky-network and N one and ten million, and
// reports the most resident memory the process ever had (peak-MB: the
// kernel's maxrss, in MB of a million bytes) and its CPU time (cpu-s, user and
// system). The goal is at most 300 MB at ten million events under each.
// A ten-million-event run takes a minute or more: pick the size with
// -bench 'DryRunMemory/.*/10M' -benchtime 1x.
func BenchmarkDryRunMemory(b *testing.B) {
	bin := buildBinary(b)
	for _, sc := range []string{"black-hole", "outage", "flaky-network"} {
		b.Run(sc, func(b *testing.B) {
			for _, n := range []struct {
				name   string
				events int
			}{{"1M", 1_000_000}, {"10M", 10_000_000}} {
				b.Run(n.name, func(b *testing.B) {
					var peak, cpu float64
					for b.Loop() {
						cmd := exec.Command(bin, "run", "--provider", "stripe", "--scenario", sc, "--dry-run", "--events", strconv.Itoa(n.events))
						if out, err := cmd.CombinedOutput(); !verdictExit(err) {
							b.Fatalf("%v\n%s", err, out)
						}
						ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
						peak = max(peak, float64(ru.Maxrss)*1024/1e6) // KiB on Linux
						cpu = max(cpu, float64(ru.Utime.Nano()+ru.Stime.Nano())/1e9)
					}
					b.ReportMetric(peak, "peak-MB")
					b.ReportMetric(cpu, "cpu-s")
				})
			}
		})
	}
}
