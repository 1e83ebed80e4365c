package main

import (
	"io"
	"os"
	"path/filepath"

	"github.com/retrysim/retrysim/report"
)

// resultsSink writes the results stream. A file is written to a temporary
// name beside it and renamed into place when complete, so a results file is
// never half-written.
type resultsSink struct {
	*report.JSONLWriter
	file *os.File // nil for stdout
	path string
}

func openResults(path string, stdout io.Writer) (*resultsSink, error) {
	if path == "-" {
		return &resultsSink{JSONLWriter: report.NewJSONLWriter(stdout)}, nil
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return nil, err
	}
	return &resultsSink{JSONLWriter: report.NewJSONLWriter(f), file: f, path: path}, nil
}

// commit flushes the stream and moves a file into place.
func (r *resultsSink) commit() error {
	if err := r.Flush(); err != nil {
		return err
	}
	if r.file == nil {
		return nil
	}
	f := r.file
	r.file = nil
	if err := f.Close(); err != nil {
		os.Remove(f.Name())
		return err
	}
	return os.Rename(f.Name(), r.path)
}

// abort removes an uncommitted temporary file.
func (r *resultsSink) abort() {
	if r.file != nil {
		r.file.Close()
		os.Remove(r.file.Name())
	}
}
