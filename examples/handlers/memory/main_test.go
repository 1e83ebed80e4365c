package main

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/retrysim/retrysim/policies"
	"github.com/retrysim/retrysim/report"
	"github.com/retrysim/retrysim/simulator"
	"github.com/retrysim/retrysim/simulator/capture"
	"github.com/retrysim/retrysim/simulator/capture/capturetest"
)

const asHandler = "RETRYSIM_TEST_RUN_MEMORY_HANDLER"

// TestMain lets the test binary be the handler program itself, so the test
// can start it as a real process, kill it and start it again.
func TestMain(m *testing.M) {
	if os.Getenv(asHandler) == "1" {
		main()
		return
	}
	os.Exit(m.Run())
}

var listening = regexp.MustCompile(`listening on (http://\S+)`)

// startHandler starts the program on a free loopback port over db and
// returns its base URL and a function that kills it (SIGKILL, as a crash or
// an OOM kill would).
func startHandler(t *testing.T, db string) (string, func()) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "--addr", "127.0.0.1:0", "--db", db)
	cmd.Env = append(os.Environ(), asHandler+"=1")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	kill := func() {
		cmd.Process.Kill()
		cmd.Wait()
	}
	t.Cleanup(kill)
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("the handler did not say where it listens: %v", err)
	}
	m := listening.FindStringSubmatch(line)
	if m == nil {
		t.Fatalf("unexpected first line %q", line)
	}
	return m[1], kill
}

// The in-memory dedup holds while the process lives and forgets on a
// restart: the same Stripe delivery, replayed before and after the process
// was killed and started again over the same database, is credited twice.
func TestMemoryHandlerForgetsOnRestart(t *testing.T) {
	capture, err := capture.ParseRaw(capturetest.Bytes(t, "stripe.http"))
	if err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(t.TempDir(), "memory.db")
	replay := func(base string) *simulator.ReplayResult {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		res, err := simulator.Replay(ctx, simulator.ReplayConfig{
			Capture: capture, URL: base + "/webhooks/stripe", Times: 3, Secret: policies.GenerateSecret("stripe", 1),
			Effects: simulator.EffectsURL(base+"/_retrysim/effects", nil),
			// The handler credits before it answers: its effects have
			// settled by the last answer, so a short quiet period sees them
			// (the default, 2 s, is for handlers that work after answering).
			SettleQuiet: 200 * time.Millisecond,
		})
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range res.Sends {
			if !s.OK() {
				t.Fatalf("send %d answered %d (%s)", s.N, s.Status, s.Error)
			}
		}
		return res
	}

	base, kill := startHandler(t, db)
	first := replay(base)
	if first.Verdict() != simulator.VerdictIdempotent || first.Writes() != 1 {
		t.Fatalf("while the process lives: %s", report.ReplayVerdictLine(first, nil))
	}
	kill()

	base, _ = startHandler(t, db)
	second := replay(base)
	if second.Before != 1 {
		t.Fatalf("after the restart the ledger shows %d credits for the event, want the 1 from before", second.Before)
	}
	if second.Writes() != 1 || second.After != 2 || second.Verdict() != simulator.VerdictNotIdempotent {
		t.Errorf("after the restart: %d writes, %d credits in all; want the event credited a second time (%s)", second.Writes(), second.After, report.ReplayVerdictLine(second, nil))
	}
}
