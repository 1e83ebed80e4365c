//go:build unix

package main

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A Slack run whose handshake failed sent no event: its timeline chart
// still has a story, every event never sent because the endpoint was never
// enabled, so it is drawn; the other outputs and the stdout report, which
// says HANDSHAKE FAILED, are written, and the run ends by its own result.
func TestChartOfAFailedHandshakeSuppressesNothing(t *testing.T) {
	h := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusInternalServerError) }))
	defer h.Close()
	dir := t.TempDir()
	code, stdout, stderr := runCLI(t, dir, "run", "--provider", "slack", "--url", h.URL+"/slack", "--secret", "slack=ea55c3e0370bb39bdc3ef76dc5b24326",
		"--events", "3", "--scenario", "happy", "--out", "chart.png", "--out", "report.md")
	if code != 0 {
		t.Fatalf("exit %d, want 0; stderr:\n%s", code, stderr)
	}
	if !strings.Contains(stdout, "HANDSHAKE FAILED") {
		t.Errorf("the stdout report does not say the handshake failed:\n%s", stdout)
	}
	if md, err := os.ReadFile(filepath.Join(dir, "report.md")); err != nil || !strings.Contains(string(md), "HANDSHAKE FAILED") {
		t.Errorf("report.md not written with the handshake's failure (%v):\n%s", err, md)
	}
	if fi, err := os.Stat(filepath.Join(dir, "chart.png")); err != nil || fi.Size() == 0 {
		t.Errorf("the chart of the events never sent was not written (%v)", err)
	}
}

// One output on a full disk does not drop the others: the stdout report
// and the other --out file are written, and exit 3 names the one that
// failed.
func TestFullDiskOnOneOutputKeepsTheOthers(t *testing.T) {
	dir := t.TempDir()
	full := filepath.Join(dir, "full.md")
	if err := os.Symlink("/dev/full", full); err != nil {
		t.Skip(err)
	}
	code, stdout, stderr := runCLI(t, dir, append(dryRun, "--out", full, "--out", "report.json")...)
	if code != exitWrite {
		t.Fatalf("exit %d, want %d; stderr:\n%s", code, exitWrite, stderr)
	}
	if !strings.Contains(stdout, "retrysim · stripe") {
		t.Errorf("the stdout report was dropped:\n%s", stdout)
	}
	if _, err := os.Stat(filepath.Join(dir, "report.json")); err != nil {
		t.Errorf("the other --out file was dropped: %v", err)
	}
	if !strings.Contains(stderr, "--out "+full+": ") || !strings.Contains(stderr, "no space left on device") {
		t.Errorf("stderr does not name the output that failed:\n%s", stderr)
	}
}

// A read-only output file is refused before the run, as cp refuses to
// overwrite one (exit 2), and stays as it was.
func TestReadOnlyOutputRefused(t *testing.T) {
	dir := t.TempDir()
	ro := filepath.Join(dir, "ro.md")
	if err := os.WriteFile(ro, []byte("kept\n"), 0o444); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runCLI(t, dir, append(dryRun, "--out", ro)...)
	if code != exitBadInput || !strings.Contains(stderr, "is read-only") {
		t.Fatalf("exit %d, want %d naming the read-only file; stderr:\n%s", code, exitBadInput, stderr)
	}
	if data, _ := os.ReadFile(ro); string(data) != "kept\n" {
		t.Errorf("the read-only file was replaced:\n%s", data)
	}
}

// --results - takes stdout, so the report goes to stderr: a picture is
// refused there, whatever stderr is.
func TestPictureReportBesideResultsOnStdoutRefused(t *testing.T) {
	code, stdout, stderr := runCLI(t, t.TempDir(), append(dryRun, "--results", "-", "--format", "png")...)
	if code != exitBadInput || !strings.Contains(stderr, "--format png with --results -") || stdout != "" {
		t.Fatalf("exit %d, want %d; stdout %d bytes; stderr:\n%.500s", code, exitBadInput, len(stdout), stderr)
	}
}

// An idle proxy (no delivery came in before --duration) has no attempt to
// draw: the chart is skipped with a note saying so, and the markdown report
// and the exit code are as if no chart had been asked for.
func TestChartWithNothingToDrawIsSkippedWithANote(t *testing.T) {
	t.Parallel()
	bin := buildBinary(t)
	dir := t.TempDir()
	p := startProxy(t, bin, "--provider", "stripe", "--secret", "stripe=whsec_idle", "--forward-to", "http://127.0.0.1:9/hook",
		"--duration", "1s", "--out", filepath.Join(dir, "chart.png"), "--out", filepath.Join(dir, "report.md"))
	waitForLine(t, p.stderr, "--out "+filepath.Join(dir, "chart.png")+": not written: nothing to draw")
	if err := p.cmd.Wait(); err != nil {
		t.Fatalf("idle proxy: %v, want exit 0", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "report.md")); err != nil {
		t.Errorf("report.md not written beside the skipped chart: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "chart.png")); err == nil {
		t.Errorf("a chart of nothing was written")
	}
}
