package report

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/retrysim/retrysim/simulator"
)

// JSONLWriter writes records as JSON Lines, the results stream that
// `retrysim report` reads back.
type JSONLWriter struct {
	bw  *bufio.Writer
	enc *simulator.RecordEncoder
}

// NewJSONLWriter returns a writer of records to w. Call Flush at the end.
func NewJSONLWriter(w io.Writer) *JSONLWriter {
	bw := bufio.NewWriterSize(w, bufferSize)
	return &JSONLWriter{bw: bw, enc: simulator.NewRecordEncoder(bw)}
}

// Add writes one record as one line.
func (j *JSONLWriter) Add(r *simulator.Record) error { return j.enc.Encode(r) }

// Flush writes any buffered lines.
func (j *JSONLWriter) Flush() error { return j.bw.Flush() }

// MaxLine is the longest line ReadJSONL takes: a record is a few hundred
// bytes, so a longer line is not a results stream.
const MaxLine = 16 << 20

// ReadJSONL reads a results stream and passes each record to add, in order,
// as a simulator.Sink: the record is lent for the call. A stream compressed
// with gzip or Zstandard (see Compression) is read the same, recognised by
// its first bytes.
// Blank lines and records of kinds it does not know (a later version's)
// are skipped. A malformed line, a line over MaxLine, a run id that
// simulator.CheckRunID refuses, or an attempt with an outcome it does not
// know is an error naming its line number; a last line cut off before its
// newline is left out, as a stream cut while it was written ends (the
// report calls the run INCOMPLETE).
func ReadJSONL(r io.Reader, add simulator.Sink) error {
	r, done, err := decompressed(r)
	if err != nil {
		return fmt.Errorf("line 1: %w", err)
	}
	defer done()
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 1<<20), MaxLine)
	// cut is set when the last line has no newline: a stream cut off in
	// the middle of a line, whose part is left out as a stream cut
	// between lines leaves nothing out (the report calls it INCOMPLETE).
	cut := false
	sc.Split(func(data []byte, atEOF bool) (int, []byte, error) {
		adv, tok, err := bufio.ScanLines(data, atEOF)
		if atEOF && tok != nil && adv == len(data) && data[len(data)-1] != '\n' {
			cut = true
		}
		return adv, tok, err
	})
	line := 0
	var rec simulator.Record
	dec := simulator.NewRecordDecoder()
	for sc.Scan() {
		line++
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 {
			continue
		}
		if err := dec.Decode(b, &rec); err != nil {
			if cut {
				return nil
			}
			return fmt.Errorf("line %d: %w", line, err)
		}
		if rec.RunID != "" {
			// One rule for a run id, the one --run-id is held to: the
			// report shows it, and a stream is no safer than its writer.
			if err := simulator.CheckRunID(rec.RunID); err != nil {
				return fmt.Errorf("line %d: %w", line, err)
			}
		}
		if !simulator.KnownKind(rec.Kind) {
			continue
		}
		if (rec.Kind == simulator.KindAttempt || rec.Outcome != "") && !rec.Outcome.Known() {
			return fmt.Errorf("line %d: unknown outcome %q (valid: %s)", line, rec.Outcome, outcomeNames())
		}
		if err := add(&rec); err != nil {
			return fmt.Errorf("line %d: %w", line, err)
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return fmt.Errorf("line %d: longer than %d MiB: not a results stream", line+1, MaxLine>>20)
		}
		return fmt.Errorf("line %d: %w", line+1, err)
	}
	return nil
}

func outcomeNames() string {
	outcomes := simulator.Outcomes()
	names := make([]string, len(outcomes))
	for i, o := range outcomes {
		names[i] = string(o)
	}
	return strings.Join(names, ", ")
}
