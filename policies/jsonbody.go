package policies

import (
	"bytes"
	"encoding/json"
	"sync"
)

// jsonEncoder is a reusable encoder that writes what the providers write:
// compact JSON with <, > and & as they are, not as \u003c, \u003e and
// \u0026 (Go's default, for HTML pages; no provider escapes them).
type jsonEncoder struct {
	buf bytes.Buffer
	enc *json.Encoder
}

var jsonEncoders = sync.Pool{New: func() any {
	e := &jsonEncoder{}
	e.enc = json.NewEncoder(&e.buf)
	e.enc.SetEscapeHTML(false)
	return e
}}

// marshalBody encodes v, a payload built from typed structs, as a provider
// writes it (see jsonEncoder). The encoding buffer is reused across calls;
// the result is the one allocation the caller keeps.
func marshalBody(v any) []byte {
	e := jsonEncoders.Get().(*jsonEncoder)
	defer jsonEncoders.Put(e)
	e.buf.Reset()
	if err := e.enc.Encode(v); err != nil {
		// Every payload is built from plain structs, strings and numbers:
		// an error here is a programming error.
		panic("policies: encoding a payload: " + err.Error())
	}
	b := e.buf.Bytes()
	return bytes.Clone(b[:len(b)-1]) // without Encode's newline
}
