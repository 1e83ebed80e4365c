package main

import (
	"errors"
	"io"
	"sync"
	"time"

	"github.com/retrysim/retrysim/report"
	"github.com/retrysim/retrysim/report/outfile"
	"github.com/retrysim/retrysim/report/redact"
	"github.com/retrysim/retrysim/simulator"
)

// resultsSink writes the results stream, with secrets redacted. A file is
// written atomically (see outfile.File): a results file is never half-written.
// On a second interrupt, which exits at once, the stream written so far is
// kept and each run still open is closed by an end record marked
// interrupted, so that it reads back as a run cut short, not as one whole.
type resultsSink struct {
	mu     sync.Mutex
	jw     *report.JSONLWriter
	red    *redact.Writer
	comp   io.WriteCloser // compresses into file, by its name (report.CompressionFor)
	file   *outfile.File  // nil for stdout
	open   []simulator.Record
	closed bool
	// unhook unregisters the exit-now hook.
	unhook func()
}

// errSinkClosed is what adding to the stream returns once it was closed
// on the way out.
var errSinkClosed = errors.New("the results stream is closed")

// openResults opens the results stream: path, or stdout for "-" (which is
// redacted already). A path ending .gz or .zst is compressed (gzip,
// Zstandard), after redaction.
func openResults(path string, stdout io.Writer, sec *redact.Set) (*resultsSink, error) {
	r := &resultsSink{}
	if path == "-" {
		r.jw = report.NewJSONLWriter(stdout)
	} else {
		f, err := outfile.Create(path)
		if err != nil {
			return nil, err
		}
		comp, err := report.CompressionFor(path).Compressor(f)
		if err != nil {
			f.Abort()
			return nil, err
		}
		r.red, r.comp = sec.Writer(comp), comp
		r.jw, r.file = report.NewJSONLWriter(r.red), f
	}
	r.unhook = onExitNow(r.exitNow)
	return r, nil
}

// Add writes one record.
func (r *resultsSink) Add(rec *simulator.Record) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return errSinkClosed
	}
	switch rec.Kind {
	case simulator.KindRun:
		r.open = append(r.open, *rec)
	case simulator.KindEnd:
		for i := range r.open {
			if sameRun(&r.open[i], rec) {
				r.open = append(r.open[:i], r.open[i+1:]...)
				break
			}
		}
	}
	return r.jw.Add(rec)
}

func sameRun(a, b *simulator.Record) bool {
	return a.Provider == b.Provider && a.Policy == b.Policy && a.Scenario == b.Scenario && a.Seed == b.Seed
}

// commit flushes the stream and moves a file into place.
func (r *resultsSink) commit() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.finish()
}

func (r *resultsSink) finish() error {
	r.closed = true
	r.unhook()
	if err := r.jw.Flush(); err != nil {
		return err
	}
	if r.file == nil {
		return nil
	}
	if err := r.red.Flush(); err != nil {
		return err
	}
	if err := r.comp.Close(); err != nil {
		return err
	}
	return r.file.Commit()
}

// exitNow ends every open run with an end record marked interrupted and
// keeps the stream: what is done on a second interrupt.
func (r *resultsSink) exitNow() {
	// A writer blocked on a full pipe holds the lock: exiting at once
	// matters more than the end records then.
	for i := 0; !r.mu.TryLock(); i++ {
		if i == 100 {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	defer r.mu.Unlock()
	if r.closed {
		return
	}
	for _, o := range r.open {
		r.jw.Add(&simulator.Record{Kind: simulator.KindEnd, Provider: o.Provider, Policy: o.Policy, Scenario: o.Scenario, Seed: o.Seed, EndFacts: simulator.EndFacts{Interrupted: true}})
	}
	r.open = nil
	r.finish()
}

// abort removes an uncommitted temporary file.
func (r *resultsSink) abort() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.closed {
		r.closed = true
		r.unhook()
	}
	if r.file != nil {
		r.file.Abort()
	}
}
