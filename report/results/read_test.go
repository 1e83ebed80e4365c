package results_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/retrysim/retrysim/report/results"
	"github.com/retrysim/retrysim/simulator"
)

// TestPaths: a glob names its files in order, a file named like a glob
// is itself, and stdin stands alone.
func TestPaths(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"s1.jsonl", "s0.jsonl", "odd[1].jsonl"} {
		if err := os.WriteFile(filepath.Join(dir, n), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := results.Paths([]string{filepath.Join(dir, "s*.jsonl"), filepath.Join(dir, "odd[1].jsonl")})
	want := []string{filepath.Join(dir, "s0.jsonl"), filepath.Join(dir, "s1.jsonl"), filepath.Join(dir, "odd[1].jsonl")}
	if err != nil || !slices.Equal(got, want) {
		t.Errorf("Paths = %v, %v; want %v", got, err, want)
	}
	if _, err := results.Paths([]string{filepath.Join(dir, "none*.jsonl")}); err == nil || !strings.HasSuffix(err.Error(), "no file matches") {
		t.Errorf("a glob matching nothing: %v", err)
	}
	if _, err := results.Paths([]string{"-", want[0]}); err == nil {
		t.Error("stdin merged with a file")
	}
	if got, err := results.Paths([]string{"-"}); err != nil || !slices.Equal(got, []string{"-"}) {
		t.Errorf("stdin alone: %v, %v", got, err)
	}
}

// TestOpenAllAndRead: a stream written by Stream reads back whole, from
// its file or from stdin, and a missing file is named.
func TestOpenAllAndRead(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "r.jsonl.zst")
	s := open(t, path)
	add(t, s, records(true))
	if err := s.Commit(); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, paths := range [][]string{{path}, {"-"}} {
		streams, closeAll, errs := results.OpenAll(paths, f)
		if len(errs) != 0 {
			t.Fatal(errs)
		}
		n := 0
		err := results.Read(streams, func(*simulator.Record) error { n++; return nil })
		closeAll()
		if err != nil || n != 3 {
			t.Errorf("%v: read %d records, %v; want 3", paths, n, err)
		}
	}
	_, closeAll, errs := results.OpenAll([]string{filepath.Join(dir, "gone.jsonl")}, nil)
	closeAll()
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), "gone.jsonl") {
		t.Errorf("a missing file: %v", errs)
	}
}
