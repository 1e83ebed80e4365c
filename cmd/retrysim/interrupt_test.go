package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/retrysim/retrysim/report"
	"github.com/retrysim/retrysim/simulator"
	"github.com/retrysim/retrysim/simulator/interrupt"
)

// startHeldRun starts the built binary against a handler that holds every
// request, and returns once the first attempt is in flight.
func startHeldRun(t *testing.T, results string) (*exec.Cmd, *gate, <-chan string, *bytes.Buffer) {
	t.Helper()
	bin := buildBinary(t)
	g := newGate(t)
	cmd, stderr, stdout := startBinary(t, bin, heldRunArgs(g.url, results))
	waitFor(t, g.arrived, "the first attempt to reach the handler")
	return cmd, g, stderr, stdout
}

// heldRunArgs runs 20 Stripe events one at a time against url, writing the
// results to results.
func heldRunArgs(url, results string) []string {
	return []string{"run", "--provider", "stripe", "--scenario", "happy", "--url", url,
		"--events", "20", "--concurrency", "1", "--no-timeline", "--secret", "stripe=whsec_interrupt_test",
		"--results", results}
}

// TestInterruptWritesPartialReport sends the first Ctrl-C (or SIGTERM) while
// an attempt is in flight: that attempt finishes, no new one starts, and the
// report and the results file are complete and marked interrupted.
func TestInterruptWritesPartialReport(t *testing.T) {
	t.Parallel()
	for _, sig := range []os.Signal{os.Interrupt, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			results := filepath.Join(dir, "attempts.jsonl")
			cmd, g, stderr, stdout := startHeldRun(t, results)
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			waitForLine(t, stderr, "finishing the attempts in flight")
			g.open() // the attempt in flight now finishes
			code, errText := exitCode(t, cmd, stderr)
			if code != exitInterrupted {
				t.Fatalf("exit code %d, want %d; stderr:\n%s", code, exitInterrupted, errText)
			}
			if !strings.Contains(stdout.String(), "INTERRUPTED") {
				t.Errorf("report not marked INTERRUPTED:\n%s", stdout.String())
			}
			if !strings.Contains(errText, "interrupted: the report and results above cover") {
				t.Errorf("stderr does not say the report is partial:\n%s", errText)
			}

			recs := readResults(t, results)
			if len(recs) < 3 || recs[0].Kind != simulator.KindRun {
				t.Fatalf("results file has %d records, starting with %q; want a run record first", len(recs), recs[0].Kind)
			}
			end := recs[len(recs)-1]
			if end.Kind != simulator.KindEnd || !end.Interrupted {
				t.Fatalf("last record %+v, want an end record marked interrupted", end)
			}
			var attempts []simulator.Record
			for _, r := range recs {
				if r.Kind == simulator.KindAttempt {
					attempts = append(attempts, r)
				}
			}
			// Only the attempt in flight was made, and it was let finish.
			if len(attempts) != 1 || attempts[0].Outcome != simulator.Delivered || !attempts[0].Reached {
				t.Fatalf("attempts %+v, want the one in flight, delivered", attempts)
			}
			if left := leftovers(t, dir, "attempts.jsonl"); len(left) > 0 {
				t.Errorf("temporary files left behind: %v", left)
			}
		})
	}
}

// TestSecondInterruptExitsAtOnce: a second Ctrl-C, a moment after the
// first, does not wait for the attempt in flight; no report is written,
// the results stream so far is kept, ending with an end record marked
// interrupted, and no temporary file is left.
func TestSecondInterruptExitsAtOnce(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	results := filepath.Join(dir, "attempts.jsonl")
	cmd, _, stderr, stdout := startHeldRun(t, results)
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	waitForLine(t, stderr, "interrupt again to exit now")
	// Press again until it takes: a signal within interrupt.SameInterrupt of the
	// first is the same interrupt.
	exited := make(chan struct{})
	defer close(exited)
	go func() {
		tick := time.NewTicker(interrupt.SameInterrupt / 4)
		defer tick.Stop()
		for {
			select {
			case <-exited:
				return
			case <-tick.C:
				cmd.Process.Signal(os.Interrupt)
			}
		}
	}()
	// The handler still holds the attempt: only the second signal can end
	// the process.
	code, errText := exitCode(t, cmd, stderr)
	if code != exitInterrupted {
		t.Fatalf("exit code %d, want %d; stderr:\n%s", code, exitInterrupted, errText)
	}
	if !strings.Contains(errText, "interrupted again: exiting now") {
		t.Errorf("stderr does not say it exits at once:\n%s", errText)
	}
	if stdout.Len() != 0 {
		t.Errorf("a report was written after the second interrupt:\n%s", stdout.String())
	}
	recs := readResults(t, results)
	if len(recs) == 0 || recs[0].Kind != simulator.KindRun {
		t.Fatalf("the results stream holds %d records, want the run record first", len(recs))
	}
	if end := recs[len(recs)-1]; end.Kind != simulator.KindEnd || !end.Interrupted {
		t.Errorf("the results stream ends with %+v, want an end record marked interrupted", end)
	}
	if left := leftovers(t, dir, "attempts.jsonl"); len(left) > 0 {
		t.Errorf("files left behind: %v", left)
	}
}

// readResults reads a results file's records.
func readResults(t *testing.T, path string) []simulator.Record {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("no results file: %v", err)
	}
	defer f.Close()
	var recs []simulator.Record
	if err := report.ReadJSONL(f, func(r *simulator.Record) error { recs = append(recs, *r); return nil }); err != nil {
		t.Fatalf("results file does not parse: %v", err)
	}
	return recs
}

// TestDemoInterrupt: the demo handler writes no report and has no attempts
// in flight; Ctrl-C says what it does do, and it stops cleanly.
func TestDemoInterrupt(t *testing.T) {
	t.Parallel()
	bin := buildBinary(t)
	cmd := exec.Command(bin, "demo", "--addr", "127.0.0.1:0")
	cmd.Dir = t.TempDir()
	outPipe, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	errPipe, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill() })
	stdout, stderr := lines(outPipe), lines(errPipe)
	waitForLine(t, stdout, "demo handler (naive) on http://127.0.0.1:")
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	line := waitForLine(t, stderr, "interrupted")
	if !strings.Contains(line, "interrupted: stopping the demo handler") || strings.Contains(line, "report") || strings.Contains(line, "attempts") {
		t.Errorf("on Ctrl-C the demo says %q, want that it stops the demo handler", line)
	}
	go func() {
		for range stdout {
		}
	}()
	code, rest := exitCode(t, cmd, stderr)
	if code != 0 {
		t.Errorf("exit code %d, want 0; stderr:\n%s", code, rest)
	}
}

// TestInterruptWhileWaitingForExec: Ctrl-C while --exec's handler is not
// listening yet is an interrupt (130), not bad input.
func TestInterruptWhileWaitingForExec(t *testing.T) {
	t.Parallel()
	bin := buildBinary(t)
	port, err := freePort()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "run", "--provider", "stripe", "--scenario", "happy", "--secret", "stripe=whsec_interrupt_test",
		"--url", "http://127.0.0.1:"+strconv.Itoa(port)+"/webhooks/stripe", "--exec", "echo starting; exec sleep 60")
	cmd.Dir = t.TempDir()
	errPipe, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill() })
	stderr := lines(errPipe)
	waitForLine(t, stderr, "starting")
	cmd.Process.Signal(os.Interrupt)
	if code, errText := exitCode(t, cmd, stderr); code != exitInterrupted {
		t.Errorf("exit %d, want %d; stderr:\n%s", code, exitInterrupted, errText)
	}
}
