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

// A chart with nothing to draw (Slack's handshake failed, so no event was
// sent) is skipped with a note; the other outputs and the stdout report,
// which says HANDSHAKE FAILED, are written, and the run ends by its own
// result, not as a failed output.
func TestChartWithNothingToDrawSuppressesNothing(t *testing.T) {
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
	if !strings.Contains(stderr, "--out chart.png: not written: nothing to draw") {
		t.Errorf("stderr does not say why the chart was not written:\n%s", stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "chart.png")); err == nil {
		t.Errorf("a chart of nothing was written")
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
