package oracle

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// scanner reads an oracle's JSON answer byte by byte from a buffer: the
// answer's shape is small (an object of counts, maybe inside one more), so
// a scanner made for it reads 60 MB in a fraction of the time
// encoding/json's tokenizer takes, and keeps nothing but the map.
type scanner struct {
	r   *bufio.Reader
	buf []byte // a string's bytes, reused
}

func newScanner(r io.Reader) *scanner { return &scanner{r: bufio.NewReaderSize(r, 64<<10)} }

// next returns the next byte that is not white space.
func (s *scanner) next() (byte, error) {
	for {
		c, err := s.r.ReadByte()
		if err != nil {
			if err == io.EOF {
				return 0, io.ErrUnexpectedEOF
			}
			return 0, err
		}
		switch c {
		case ' ', '\t', '\n', '\r':
			continue
		}
		return c, nil
	}
}

// end checks that nothing but white space follows the answer.
func (s *scanner) end() error {
	_, err := s.next()
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF):
		return nil
	case err != nil:
		return err
	}
	return errors.New("more than one JSON value")
}

func (s *scanner) expect(want byte) error {
	c, err := s.next()
	if err != nil {
		return err
	}
	if c != want {
		return fmt.Errorf("expected %q, got %s", want, kindOf(c))
	}
	return nil
}

// str reads a string whose opening quote was read. Escapes are rare in
// ids: a string with one is unquoted by encoding/json.
func (s *scanner) str() (string, error) {
	s.buf = s.buf[:0]
	for {
		chunk, err := s.r.ReadSlice('"')
		if err != nil && !errors.Is(err, bufio.ErrBufferFull) {
			if err == io.EOF {
				return "", io.ErrUnexpectedEOF
			}
			return "", err
		}
		s.buf = append(s.buf, chunk...)
		if err != nil { // the buffer was full: the string goes on
			continue
		}
		// The quote ends the string unless an odd run of backslashes
		// precedes it.
		n := 0
		for i := len(s.buf) - 2; i >= 0 && s.buf[i] == '\\'; i-- {
			n++
		}
		if n%2 == 0 {
			break
		}
	}
	raw := s.buf[:len(s.buf)-1]
	for _, c := range raw {
		if c < 0x20 {
			return "", errors.New("a control character in a string")
		}
	}
	if !hasBackslash(raw) {
		return string(raw), nil
	}
	var out string
	quoted := append(append([]byte{'"'}, raw...), '"')
	if err := json.Unmarshal(quoted, &out); err != nil {
		return "", err
	}
	return out, nil
}

func hasBackslash(b []byte) bool {
	for _, c := range b {
		if c == '\\' {
			return true
		}
	}
	return false
}

// number reads a number whose first byte is first, as its text.
func (s *scanner) number(first byte) (string, error) {
	s.buf = append(s.buf[:0], first)
	for {
		c, err := s.r.ReadByte()
		if err == io.EOF {
			break
		}
		if err != nil {
			return "", err
		}
		if (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E' {
			if len(s.buf) > 64 {
				return "", errors.New("a number longer than 64 digits")
			}
			s.buf = append(s.buf, c)
			continue
		}
		if err := s.r.UnreadByte(); err != nil {
			return "", err
		}
		break
	}
	return string(s.buf), nil
}

// isNumberStart says c can start a JSON number.
func isNumberStart(c byte) bool { return c == '-' || (c >= '0' && c <= '9') }

func kindOf(c byte) string {
	switch {
	case c == '{':
		return "an object"
	case c == '[':
		return "an array"
	case c == '"':
		return "a string"
	case c == 't' || c == 'f':
		return "a boolean"
	case c == 'n':
		return "null"
	case isNumberStart(c):
		return "a number"
	}
	return fmt.Sprintf("%q", c)
}
