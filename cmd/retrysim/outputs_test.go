//go:build unix

package main

import (
	"bytes"
	"io"
	"io/fs"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/retrysim/retrysim/report"
	"github.com/retrysim/retrysim/simulator"
)

// dryRun is a quick run that writes a report and a results stream.
var dryRun = []string{"run", "--dry-run", "--provider", "stripe", "--scenario", "happy", "--events", "3", "--no-timeline"}

// mknod makes a character device like /dev/null (minor 3) or /dev/full
// (minor 7) in the test's own directory, so that a broken writer can
// only replace that one; it skips when this user may not make devices.
func mknod(t *testing.T, path string, minor int) {
	t.Helper()
	if err := syscall.Mknod(path, syscall.S_IFCHR|0o666, 1<<8|minor); err != nil {
		t.Skipf("cannot make a device node here: %v", err)
	}
}

func mode(t *testing.T, path string) fs.FileMode {
	t.Helper()
	fi, err := os.Lstat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Mode()
}

// TestOutputToDevice: a device is written in place, never replaced by a
// regular file; a full one exits 3, the code for an output that could not
// be written, and stays a device.
func TestOutputToDevice(t *testing.T) {
	dir := t.TempDir()
	null, full := filepath.Join(dir, "null.jsonl"), filepath.Join(dir, "full.md")
	mknod(t, null, 3)
	mknod(t, full, 7)
	code, _, errs := runCLI(t, dir, append(dryRun, "--results", null, "--out", filepath.Join(dir, "null2.md"))...)
	if code != 0 {
		t.Fatalf("exit %d:\n%s", code, errs)
	}
	if m := mode(t, null); m&fs.ModeCharDevice == 0 {
		t.Errorf("--results to a device replaced it with %v", m)
	}
	code, _, errs = runCLI(t, dir, append(dryRun, "--out", full)...)
	if code != exitWrite {
		t.Errorf("--out to a full device: exit %d, want %d:\n%s", code, exitWrite, errs)
	}
	if !strings.Contains(errs, "no space left on device") {
		t.Errorf("the error does not say the device is full:\n%s", errs)
	}
	if m := mode(t, full); m&fs.ModeCharDevice == 0 {
		t.Errorf("--out to a device replaced it with %v", m)
	}
	if left := leftovers(t, dir, "null.jsonl", "full.md", "null2.md"); len(left) > 0 {
		t.Errorf("files left behind: %v", left)
	}
}

// TestOutputToFIFO: a FIFO is written to, and the reader at its other end
// gets the whole stream; it is still a FIFO afterwards.
func TestOutputToFIFO(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe.jsonl")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	got := make(chan []byte)
	go func() {
		f, err := os.Open(fifo) // blocks until the writer opens it
		if err != nil {
			got <- nil
			return
		}
		defer f.Close()
		b, _ := io.ReadAll(f)
		got <- b
	}()
	code, _, errs := runCLI(t, dir, append(dryRun, "--results", fifo)...)
	if code != 0 {
		t.Fatalf("exit %d:\n%s", code, errs)
	}
	stream := waitFor(t, got, "the FIFO's reader")
	var kinds []string
	if err := report.ReadJSONL(bytes.NewReader(stream), func(r *simulator.Record) error { kinds = append(kinds, r.Kind); return nil }); err != nil {
		t.Fatalf("the stream read from the FIFO: %v", err)
	}
	if len(kinds) == 0 || kinds[len(kinds)-1] != simulator.KindEnd {
		t.Errorf("the FIFO carried %v, want a whole stream ending in an end record", kinds)
	}
	if m := mode(t, fifo); m&fs.ModeNamedPipe == 0 {
		t.Errorf("the FIFO was replaced with %v", m)
	}
}

// TestOutputThroughSymlink: a symlink is written through to its target,
// which keeps its permissions; the link stays a link.
func TestOutputThroughSymlink(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "real")
	os.Mkdir(real, 0o755)
	target := filepath.Join(real, "report.md")
	if err := os.WriteFile(target, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.md")
	if err := os.Symlink("real/report.md", link); err != nil {
		t.Fatal(err)
	}
	dangling := filepath.Join(dir, "new.jsonl")
	if err := os.Symlink("real/new.jsonl", dangling); err != nil {
		t.Fatal(err)
	}
	code, _, errs := runCLI(t, dir, append(dryRun, "--out", link, "--results", dangling)...)
	if code != 0 {
		t.Fatalf("exit %d:\n%s", code, errs)
	}
	if m := mode(t, link); m&fs.ModeSymlink == 0 {
		t.Errorf("the symlink was replaced with %v", m)
	}
	if m := mode(t, dangling); m&fs.ModeSymlink == 0 {
		t.Errorf("the dangling symlink was replaced with %v", m)
	}
	b, _ := os.ReadFile(target)
	if !strings.Contains(string(b), "stripe") {
		t.Errorf("the symlink's target holds %q, want the report", b)
	}
	if m := mode(t, target); m.Perm() != 0o600 {
		t.Errorf("the target's mode is %v, want the 0600 it had", m.Perm())
	}
	if _, err := os.Stat(filepath.Join(real, "new.jsonl")); err != nil {
		t.Errorf("the dangling symlink's target was not created: %v", err)
	}
}

// TestOutputModes: a new output file follows the umask; a replaced one
// keeps its permissions.
func TestOutputModes(t *testing.T) {
	dir := t.TempDir()
	old := syscall.Umask(0o027)
	defer syscall.Umask(old)
	kept := filepath.Join(dir, "kept.jsonl")
	os.WriteFile(kept, nil, 0o640)
	os.Chmod(kept, 0o604)
	code, _, errs := runCLI(t, dir, append(dryRun, "--out", "new.md", "--results", kept)...)
	if code != 0 {
		t.Fatalf("exit %d:\n%s", code, errs)
	}
	if m := mode(t, filepath.Join(dir, "new.md")).Perm(); m != 0o640 {
		t.Errorf("a new file has mode %v, want 0640 (0666 less the umask 027)", m)
	}
	if m := mode(t, kept).Perm(); m != 0o604 {
		t.Errorf("a replaced file has mode %v, want its own 0604", m)
	}
}

// TestOutputRefused: a socket is not an output; an output that is also
// another output or an input is refused before anything runs.
func TestOutputRefused(t *testing.T) {
	dir := t.TempDir()
	sock := filepath.Join(dir, "s.md")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Skipf("unix socket: %v", err)
	}
	defer ln.Close()
	scen := filepath.Join(dir, "my.yaml")
	os.WriteFile(scen, []byte("name: mine\nfaults: []\n"), 0o644)
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"socket", []string{"--out", sock}, "it is a socket"},
		{"results and out", []string{"--results", "x.md", "--out", "./x.md"}, "--results and --out both name x.md"},
		{"results over the scenario", []string{"--results", scen, "--scenario", "my.yaml"}, "is also --scenario"},
	} {
		t.Run(c.name, func(t *testing.T) {
			args := append([]string{"run", "--dry-run", "--provider", "stripe", "--events", "2"}, c.args...)
			code, _, errs := runCLI(t, dir, args...)
			if code != exitBadInput || !strings.Contains(errs, c.want) {
				t.Errorf("exit %d, want 2 saying %q:\n%s", code, c.want, errs)
			}
		})
	}
	if b, _ := os.ReadFile(scen); string(b) != "name: mine\nfaults: []\n" {
		t.Errorf("the scenario file was overwritten: %q", b)
	}
	if m := mode(t, sock); m&fs.ModeSocket == 0 {
		t.Errorf("the socket was replaced with %v", m)
	}
}

// TestStaleTempFilesRemoved: a temporary file that a killed run left
// beside an output is removed by the next run; a live process's is not.
func TestStaleTempFilesRemoved(t *testing.T) {
	dir := t.TempDir()
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Skip(err)
	}
	stale := filepath.Join(dir, ".a.jsonl.tmp-"+strconv.Itoa(dead.Process.Pid)+"-0123")
	live := filepath.Join(dir, ".a.jsonl.tmp-1-0123") // init never goes away
	os.WriteFile(stale, nil, 0o600)
	os.WriteFile(live, nil, 0o600)
	code, _, errs := runCLI(t, dir, append(dryRun, "--results", "a.jsonl")...)
	if code != 0 {
		t.Fatalf("exit %d:\n%s", code, errs)
	}
	if _, err := os.Stat(stale); err == nil {
		t.Errorf("the stale temporary file %s was left", filepath.Base(stale))
	}
	if _, err := os.Stat(live); err != nil {
		t.Errorf("a live process's temporary file was removed")
	}
}
