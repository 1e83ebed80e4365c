package policies

import (
	"strconv"
	"unicode/utf8"
)

// jsonw appends a JSON object's members to a byte slice, in the order they
// are written, as encoding/json writes a struct (compact, no HTML
// escaping): the hot payloads are written with it straight from their
// typed structs, without reflection. A test keeps each such payload byte for
// byte what encoding/json writes for the same struct.
type jsonw struct {
	b    []byte
	more bool // a member was written at this level
}

func (w *jsonw) sep() {
	if w.more {
		w.b = append(w.b, ',')
	}
	w.more = true
}

func (w *jsonw) key(k string) {
	w.sep()
	w.b = append(w.b, '"')
	w.b = append(w.b, k...)
	w.b = append(w.b, '"', ':')
}

// open starts an object, as a member k or (k == "") a value.
func (w *jsonw) open(k string) {
	if k != "" {
		w.key(k)
	} else {
		w.sep()
	}
	w.b = append(w.b, '{')
	w.more = false
}

func (w *jsonw) close() {
	w.b = append(w.b, '}')
	w.more = true
}

// openArray starts an array member k; its values are written with
// open("") or the value methods with k == "".
func (w *jsonw) openArray(k string) {
	w.key(k)
	w.b = append(w.b, '[')
	w.more = false
}

func (w *jsonw) closeArray() {
	w.b = append(w.b, ']')
	w.more = true
}

func (w *jsonw) str(k, v string) {
	w.key(k)
	w.b = appendJSONString(w.b, v)
}

func (w *jsonw) int(k string, v int64) {
	w.key(k)
	w.b = strconv.AppendInt(w.b, v, 10)
}

func (w *jsonw) bool(k string, v bool) {
	w.key(k)
	w.b = strconv.AppendBool(w.b, v)
}

// raw writes member k as b, JSON already encoded (and compact).
func (w *jsonw) raw(k string, b []byte) {
	w.key(k)
	w.b = append(w.b, b...)
}

func (w *jsonw) null(k string) {
	w.key(k)
	w.b = append(w.b, "null"...)
}

// appendJSONString appends s as a JSON string, escaped as encoding/json
// escapes it with HTML escaping off.
func appendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			default:
				const hex = "0123456789abcdef"
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', byte('8'+r-'\u2028'))
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
