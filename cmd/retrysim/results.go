package main

import (
	"io"

	"github.com/retrysim/retrysim/report"
)

// resultsSink writes the results stream, with secrets redacted. A file is
// written atomically (see atomicFile): a results file is never half-written.
type resultsSink struct {
	*report.JSONLWriter
	red  *redactWriter
	file *atomicFile // nil for stdout
}

// openResults opens the results stream: path, or stdout for "-" (which is
// redacted already).
func openResults(path string, stdout io.Writer, sec *secretSet) (*resultsSink, error) {
	if path == "-" {
		return &resultsSink{JSONLWriter: report.NewJSONLWriter(stdout)}, nil
	}
	f, err := createAtomic(path)
	if err != nil {
		return nil, err
	}
	red := sec.writer(f)
	return &resultsSink{JSONLWriter: report.NewJSONLWriter(red), red: red, file: f}, nil
}

// commit flushes the stream and moves a file into place.
func (r *resultsSink) commit() error {
	if err := r.Flush(); err != nil {
		return err
	}
	if r.file == nil {
		return nil
	}
	if err := r.red.Flush(); err != nil {
		return err
	}
	return r.file.commit()
}

// abort removes an uncommitted temporary file.
func (r *resultsSink) abort() {
	if r.file != nil {
		r.file.abort()
	}
}
