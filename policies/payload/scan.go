package payload

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
)

// Error is a problem with a payload file, at a place in it when one is
// known (Line and Col from 1; 0 when not known).
type Error struct {
	File      string
	Line, Col int
	Err       error
}

func (e *Error) Error() string {
	switch {
	case e.Line > 0 && e.Col > 0:
		return fmt.Sprintf("%s:%d:%d: %v", e.File, e.Line, e.Col, e.Err)
	case e.Line > 0:
		return fmt.Sprintf("%s:%d: %v", e.File, e.Line, e.Err)
	}
	return fmt.Sprintf("%s: %v", e.File, e.Err)
}

func (e *Error) Unwrap() error { return e.Err }

// ErrInvalid is returned, wrapped in an *Error, for a payload file that
// cannot be used: not JSON, a placeholder that fails, an override of a
// field it does not have.
var ErrInvalid = errors.New("invalid payload")

// errAt is an *Error at byte offset off of data.
func errAt(file string, data []byte, off int, format string, args ...any) *Error {
	line, col := position(data, off)
	return &Error{File: file, Line: line, Col: col, Err: fmt.Errorf("%w: "+format, append([]any{ErrInvalid}, args...)...)}
}

// position is the line and column (in bytes, from 1) of byte offset off.
func position(data []byte, off int) (line, col int) {
	off = max(0, min(off, len(data)))
	before := data[:off]
	line = 1 + bytes.Count(before, []byte("\n"))
	return line, off - (bytes.LastIndexByte(before, '\n') + 1) + 1
}

// span is where one value of a JSON document lies, and its path: the keys
// (and array indexes) from the top, joined by dots.
type span struct {
	path       string
	start, end int
	kind       byte // '{', '[', '"', '0' (number), 't' (true, false, null)
}

// maxDepth bounds the nesting of a payload, as providers' payloads are
// shallow; a deeper one is refused rather than walked.
const maxDepth = 64

// scan checks that data is one JSON object and returns the span of every
// value in it, in order of start (parents before their children).
func scan(file string, data []byte) ([]span, error) {
	if !json.Valid(data) {
		var raw json.RawMessage
		err := json.Unmarshal(data, &raw)
		var se *json.SyntaxError
		if errors.As(err, &se) {
			// The offset is just past the byte that broke the syntax.
			return nil, errAt(file, data, int(se.Offset)-1, "not valid JSON: %v", err)
		}
		return nil, errAt(file, data, len(data), "not valid JSON")
	}
	s := scanner{data: data, dec: json.NewDecoder(bytes.NewReader(data))}
	s.dec.UseNumber()
	start := s.next(0)
	if start >= len(data) || data[start] != '{' {
		return nil, errAt(file, data, start, "a payload is a JSON object ({…}), as the provider sends it")
	}
	if err := s.value("", 0); err != nil {
		return nil, errAt(file, data, s.next(int(s.dec.InputOffset())), "%v", err)
	}
	// Spans were added as values ended: order them by start.
	sortSpans(s.spans)
	return s.spans, nil
}

type scanner struct {
	data  []byte
	dec   *json.Decoder
	spans []span
}

// next is the offset of the first byte at or after off that is not space,
// a colon or a comma: where the next value starts.
func (s *scanner) next(off int) int {
	for off < len(s.data) {
		switch s.data[off] {
		case ' ', '\t', '\r', '\n', ':', ',':
			off++
		default:
			return off
		}
	}
	return off
}

func (s *scanner) value(path string, depth int) error {
	if depth > maxDepth {
		return fmt.Errorf("nested more than %d deep", maxDepth)
	}
	start := s.next(int(s.dec.InputOffset()))
	tok, err := s.dec.Token()
	if err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return err
	}
	kind := byte('t')
	switch t := tok.(type) {
	case json.Delim:
		kind = byte(t)
		i := 0
		for s.dec.More() {
			var sub string
			if t == '{' {
				k, err := s.dec.Token()
				if err != nil {
					return err
				}
				sub = join(path, k.(string))
			} else {
				sub = join(path, strconv.Itoa(i))
			}
			if err := s.value(sub, depth+1); err != nil {
				return err
			}
			i++
		}
		if _, err := s.dec.Token(); err != nil {
			return err
		}
	case string:
		kind = '"'
	case json.Number:
		kind = '0'
	}
	s.spans = append(s.spans, span{path: path, start: start, end: int(s.dec.InputOffset()), kind: kind})
	return nil
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// sortSpans orders spans, a tree's post-order, by start: each parent
// (which starts first) before its children.
func sortSpans(spans []span) {
	slices.SortStableFunc(spans, func(a, b span) int { return a.start - b.start })
}
