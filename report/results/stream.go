// Package results writes a run's results stream: the JSON Lines records
// that 'retrysim report' reads back, with the secrets given redacted,
// compressed by the file's name, and committed atomically, so that a
// results file is never half-written.
package results

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

// Stream writes the results stream, with secrets redacted. A file is
// written atomically (see outfile.File). ExitNow, called on the way out of
// a process that cannot wait, keeps the stream written so far and closes
// each run still open by an end record marked interrupted, so that it
// reads back as a run cut short, not as one whole.
type Stream struct {
	mu     sync.Mutex
	jw     *report.JSONLWriter
	red    *redact.Writer
	comp   io.WriteCloser // compresses into file, by its name (report.CompressionFor)
	file   *outfile.File  // nil for stdout
	open   []simulator.Record
	closed bool
}

// ErrClosed is what adding to the stream returns once it was committed,
// aborted or closed on the way out.
var ErrClosed = errors.New("the results stream is closed")

// Open opens the results stream: the file at path, or stdout for "-"
// (which the caller redacts already). A path ending .gz or .zst is
// compressed (gzip, Zstandard), after redaction of sec.
func Open(path string, stdout io.Writer, sec *redact.Set) (*Stream, error) {
	s := &Stream{}
	if path == "-" {
		s.jw = report.NewJSONLWriter(stdout)
		return s, nil
	}
	f, err := outfile.Create(path)
	if err != nil {
		return nil, err
	}
	comp, err := report.CompressionFor(path).Compressor(f)
	if err != nil {
		f.Abort()
		return nil, err
	}
	s.red, s.comp = sec.Writer(comp), comp
	s.jw, s.file = report.NewJSONLWriter(s.red), f
	return s, nil
}

// Add writes one record; a simulator.Sink.
func (s *Stream) Add(rec *simulator.Record) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return ErrClosed
	}
	switch rec.Kind {
	case simulator.KindRun:
		s.open = append(s.open, *rec)
	case simulator.KindEnd:
		for i := range s.open {
			if sameRun(&s.open[i], rec) {
				s.open = append(s.open[:i], s.open[i+1:]...)
				break
			}
		}
	}
	return s.jw.Add(rec)
}

// sameRun reports whether two records are of the same run.
func sameRun(a, b *simulator.Record) bool {
	return a.Provider == b.Provider && a.Policy == b.Policy && a.Scenario == b.Scenario && a.Seed == b.Seed
}

// Commit flushes the stream and moves a file into place.
func (s *Stream) Commit() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.finish()
}

func (s *Stream) finish() error {
	s.closed = true
	if err := s.jw.Flush(); err != nil {
		return err
	}
	if s.file == nil {
		return nil
	}
	if err := s.red.Flush(); err != nil {
		return err
	}
	if err := s.comp.Close(); err != nil {
		return err
	}
	return s.file.Commit()
}

// ExitNow ends every open run with an end record marked interrupted and
// commits the stream: what is done before exiting at once on a second
// interrupt. It gives up, keeping nothing, when a writer blocked on a
// full pipe holds the stream for a second: exiting at once matters more
// than the end records then.
func (s *Stream) ExitNow() {
	for i := 0; !s.mu.TryLock(); i++ {
		if i == 100 {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	defer s.mu.Unlock()
	if s.closed {
		return
	}
	for _, o := range s.open {
		s.jw.Add(&simulator.Record{Kind: simulator.KindEnd, Provider: o.Provider, Policy: o.Policy, Scenario: o.Scenario, Seed: o.Seed, EndFacts: simulator.EndFacts{Interrupted: true}})
	}
	s.open = nil
	s.finish()
}

// Abort removes a file not yet committed; after Commit it does nothing.
func (s *Stream) Abort() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	if s.file != nil {
		s.file.Abort()
	}
}
