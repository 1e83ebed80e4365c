package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/retrysim/retrysim/simulator"
)

// A signal that comes after the last attempt, while the effects settle,
// cuts nothing: the results stream's end record says the run is complete,
// the report has no INTERRUPTED line, and the exit code is the run's own,
// not 130. Never both "complete" and 130.
func TestSignalAfterLastAttemptKeepsTheExitCode(t *testing.T) {
	t.Parallel()
	bin := buildBinary(t)
	handler := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.Copy(io.Discard, r.Body) }))
	defer handler.Close()
	settling, release := make(chan struct{}), make(chan struct{})
	var reads atomic.Int32
	oracle := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if reads.Add(1) == 2 { // the first read after the run: the attempts are over
			close(settling)
			<-release
		}
		w.Write([]byte("{}"))
	}))
	defer oracle.Close()
	defer func() {
		select {
		case <-release:
		default:
			close(release)
		}
	}()
	results := filepath.Join(t.TempDir(), "results.jsonl")
	cmd, stderr, stdout := startBinary(t, bin, []string{"run", "--provider", "stripe", "--scenario", "happy", "--events", "1",
		"--url", handler.URL + "/webhooks/stripe", "--secret", "stripe=whsec_late_signal_test", "--effects-url", oracle.URL,
		"--settle", "3s", "--results", results})
	waitFor(t, settling, "the effects to settle")
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	waitForLine(t, stderr, "interrupted")
	close(release)
	code, errText := exitCode(t, cmd, stderr)
	recs := readResults(t, results)
	end := recs[len(recs)-1]
	if end.Kind != simulator.KindEnd {
		t.Fatalf("the results end with %+v", end)
	}
	marked := end.Interrupted || strings.Contains(stdout.String(), "INTERRUPTED")
	if (code == exitInterrupted) != marked {
		t.Fatalf("exit %d, yet the stream's end says interrupted=%v and the report INTERRUPTED=%v; stderr:\n%s\nstdout:\n%s",
			code, end.Interrupted, strings.Contains(stdout.String(), "INTERRUPTED"), errText, stdout)
	}
	if code != 0 || marked {
		t.Errorf("exit %d, marked interrupted %v: want the complete run's own exit 0; stderr:\n%s", code, marked, errText)
	}
}
