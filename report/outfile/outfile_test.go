package outfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A file being written is not at its path until Commit; an existing file
// stays whole until then, and keeps its permissions.
func TestCreateReplacesOnlyOnCommit(t *testing.T) {
	path := filepath.Join(t.TempDir(), "results.jsonl")
	if err := os.WriteFile(path, []byte("old\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString("new\n"); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); string(b) != "old\n" {
		t.Fatalf("before Commit the path holds %q, want the old file", b)
	}
	if err := f.Commit(); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	fi, _ := os.Stat(path)
	if string(b) != "new\n" || fi.Mode().Perm() != 0o600 {
		t.Fatalf("after Commit the path holds %q with mode %v, want the new file with 0600", b, fi.Mode().Perm())
	}
	if left := temporaries(t, path); len(left) > 0 {
		t.Fatalf("temporary files left: %v", left)
	}
}

// A fill that fails, or an Abort, leaves the old file as it was and no
// temporary file beside it.
func TestWriteLeavesNothingHalfWritten(t *testing.T) {
	path := filepath.Join(t.TempDir(), "report.html")
	os.WriteFile(path, []byte("old"), 0o644)
	boom := errors.New("render failed")
	err := Write(path, func(w io.Writer) error {
		io.WriteString(w, "half")
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("Write returned %v, want the fill's error", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "old" {
		t.Fatalf("a failed fill left %q at the path", b)
	}
	f, err := Create(path)
	if err != nil {
		t.Fatal(err)
	}
	RemovePending() // as a second interrupt does
	f.Abort()
	if left := temporaries(t, path); len(left) > 0 {
		t.Fatalf("temporary files left: %v", left)
	}
}

// A symlink is written through to its target, as a shell's > would.
func TestCreateWritesThroughASymlink(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "target.txt")
	link := filepath.Join(dir, "link.txt")
	if err := os.Symlink("target.txt", link); err != nil {
		t.Skip("no symlinks here:", err)
	}
	if err := Write(link, func(w io.Writer) error { _, err := io.WriteString(w, "x"); return err }); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatal("the symlink was replaced by a file")
	}
	if b, _ := os.ReadFile(target); string(b) != "x" {
		t.Fatalf("the target holds %q", b)
	}
}

func TestCheckWritable(t *testing.T) {
	dir := t.TempDir()
	ro := filepath.Join(dir, "ro.txt")
	os.WriteFile(ro, nil, 0o444)
	for _, c := range []struct {
		name, path, want string
	}{
		{"a new file", filepath.Join(dir, "new.txt"), ""},
		{"a directory", dir, "is a directory"},
		{"a missing directory", filepath.Join(dir, "nope", "x.txt"), "does not exist"},
		{"a read-only file", ro, "read-only"},
		{"a device", os.DevNull, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := CheckWritable(c.path)
			if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
				t.Fatalf("CheckWritable(%s) = %v, want %q", c.path, err, c.want)
			}
		})
	}
}

// Two outputs naming one file, or an output naming an input, are refused;
// two outputs to a device are not.
func TestCheckDistinct(t *testing.T) {
	dir := t.TempDir()
	a := filepath.Join(dir, "a.json")
	os.WriteFile(a, nil, 0o644)
	link := filepath.Join(dir, "link.json")
	os.Symlink(a, link)
	errs := CheckDistinct(
		[]Named{{"--results", a}, {"--out", link}, {"--out", os.DevNull}, {"--out", os.DevNull}},
		[]Named{{"--config", filepath.Join(dir, ".", "a.json")}})
	if len(errs) != 3 || !strings.Contains(errs[0].Error(), "--results and --out both name") ||
		!strings.Contains(errs[1].Error(), "--results "+a+" is also --config") || !strings.Contains(errs[2].Error(), "--out "+link+" is also --config") {
		t.Fatalf("got %v", errs)
	}
}

func temporaries(t *testing.T, path string) []string {
	t.Helper()
	m, err := filepath.Glob(tempPrefix(path) + "*")
	if err != nil {
		t.Fatal(err)
	}
	return m
}
