package report

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"

	"github.com/retrysim/retrysim/simulator"
)

// JSONLWriter writes records as JSON Lines, the results stream that
// `retrysim report` reads back.
type JSONLWriter struct {
	bw  *bufio.Writer
	enc *json.Encoder
}

// NewJSONLWriter returns a writer of records to w. Call Flush at the end.
func NewJSONLWriter(w io.Writer) *JSONLWriter {
	bw := bufio.NewWriterSize(w, 64<<10)
	return &JSONLWriter{bw: bw, enc: json.NewEncoder(bw)}
}

// Add writes one record as one line.
func (j *JSONLWriter) Add(r simulator.Record) error { return j.enc.Encode(r) }

// Flush writes any buffered lines.
func (j *JSONLWriter) Flush() error { return j.bw.Flush() }

// ReadJSONL reads a results stream and passes each record to add, in order.
// A malformed line is an error naming its line number.
func ReadJSONL(r io.Reader, add func(simulator.Record) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	line := 0
	for sc.Scan() {
		line++
		if len(sc.Bytes()) == 0 {
			continue
		}
		var rec simulator.Record
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			return fmt.Errorf("line %d: %w", line, err)
		}
		if err := add(rec); err != nil {
			return fmt.Errorf("line %d: %w", line, err)
		}
	}
	return sc.Err()
}
