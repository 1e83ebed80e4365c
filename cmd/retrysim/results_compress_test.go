package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
)

// TestCompressedResultsRoundTrip: --results FILE.jsonl.gz or .zst writes
// the stream compressed (a real gzip or Zstandard file, smaller than the
// plain one, holding the plain one's lines), and report reads it back to
// the report run printed, from the file and from stdin.
func TestCompressedResultsRoundTrip(t *testing.T) {
	dir := t.TempDir()
	base := []string{"run", "--provider", "stripe", "--scenario", "flaky-network", "--dry-run", "--events", "40", "--run-id", "fixedid1"}
	plainPath := filepath.Join(dir, "r.jsonl")
	plainOut, _ := mustRun(t, nil, append(base, "--results", plainPath)...)
	plain, err := os.ReadFile(plainPath)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		ext        string
		decompress func([]byte) ([]byte, error)
	}{
		{".gz", func(b []byte) ([]byte, error) {
			r, err := gzip.NewReader(bytes.NewReader(b))
			if err != nil {
				return nil, err
			}
			var out bytes.Buffer
			_, err = out.ReadFrom(r)
			return out.Bytes(), err
		}},
		{".zst", func(b []byte) ([]byte, error) {
			d, err := zstd.NewReader(nil)
			if err != nil {
				return nil, err
			}
			defer d.Close()
			return d.DecodeAll(b, nil)
		}},
	} {
		t.Run(c.ext, func(t *testing.T) {
			path := filepath.Join(dir, "r.jsonl"+c.ext)
			runOut, _ := mustRun(t, nil, append(base, "--results", path)...)
			if runOut != plainOut {
				t.Fatalf("the run's report changed with its stream's compression:\n%s\n---\n%s", runOut, plainOut)
			}
			packed, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if len(packed)*4 > len(plain) {
				t.Errorf("%s stream is %d bytes, the plain one %d: not compressed", c.ext, len(packed), len(plain))
			}
			unpacked, err := c.decompress(packed)
			if err != nil {
				t.Fatalf("not a %s stream: %v", c.ext, err)
			}
			if !bytes.Equal(withoutWallStart(unpacked), withoutWallStart(plain)) {
				t.Errorf("the %s stream does not hold the plain stream's lines", c.ext)
			}
			if repOut, _ := mustRun(t, nil, "report", path); repOut != plainOut {
				t.Errorf("report of the %s file differs from run\n--- run:\n%s\n--- report:\n%s", c.ext, plainOut, repOut)
			}
			if repOut, _ := mustRun(t, packed, "report", "-"); repOut != plainOut {
				t.Errorf("report - of a %s stream differs from run", c.ext)
			}
		})
	}
}

// TestCorruptCompressedResults: a compressed stream cut short is bad input
// naming the stream, not a report of what came before the cut.
func TestCorruptCompressedResults(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "r.jsonl.zst")
	mustRun(t, nil, "run", "--provider", "stripe", "--scenario", "flaky-network", "--dry-run", "--events", "40", "--results", path)
	packed, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	cut := filepath.Join(dir, "cut.jsonl.zst")
	if err := os.WriteFile(cut, packed[:len(packed)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := retrysim(t, nil, "report", cut)
	if code != exitBadInput || out != "" || !bytes.Contains([]byte(errs), []byte("cut.jsonl.zst")) {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errs)
	}
}

// wallStart is the run record's wall-clock start: when each run began, the
// one field two runs of the same dry run differ in.
var wallStart = regexp.MustCompile(`"wall_start":"[^"]*",?`)

func withoutWallStart(b []byte) []byte { return wallStart.ReplaceAll(b, nil) }
