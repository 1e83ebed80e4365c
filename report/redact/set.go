// Package redact keeps secrets out of everything retrysim writes: a Set of
// secrets and every way they are spelled (JSON, Go quotes, URLs, the
// formats' escapes), a Writer that replaces them in a stream, Records that
// redacts a run's records before a format escapes them, and Printable for
// text a handler controls.
package redact

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"html"
	"io"
	"net/url"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/retrysim/retrysim/report"
)

// Marker stands in for a secret in anything retrysim writes.
const Marker = "[REDACTED]"

// MinLength is the shortest secret that is Marker. Redaction replaces
// every occurrence, and a short secret is often an ordinary word of the
// output ("test" in stripe-test, "delivered" as a fate, "retrysim"):
// replacing those garbled reports and JSON enums. No provider issues secrets
// this short; a user who picks one is told (and is told).
const MinLength = 12

// Set is the signing secrets of one command line. Every writer made by
// writer replaces them, and the ways they are spelled in JSON, Go-quoted
// strings and URLs, with [REDACTED].
type Set struct {
	mu    sync.Mutex               // serialises add
	forms atomic.Pointer[[][]byte] // every spelling of every secret, longest first; replaced whole, never changed
}

// Add registers secrets; short and repeated ones are ignored.
func (s *Set) Add(secrets ...string) {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	forms := slices.Clone(s.snapshot())
	for _, v := range secrets {
		if len(v) < MinLength {
			continue
		}
		for _, f := range Spellings(v) {
			if len(f) >= MinLength && !slices.ContainsFunc(forms, func(b []byte) bool { return string(b) == f }) {
				forms = append(forms, []byte(f))
			}
		}
	}
	slices.SortStableFunc(forms, func(a, b []byte) int { return len(b) - len(a) })
	s.forms.Store(&forms)
}

// Spellings are the ways v may appear in retrysim's output.
func Spellings(v string) []string {
	out := []string{v}
	quoted := strconv.Quote(v)
	out = append(out, quoted[1:len(quoted)-1])
	if b, err := json.Marshal(v); err == nil {
		out = append(out, string(b[1:len(b)-1]))
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if enc.Encode(v) == nil {
		b := bytes.TrimSpace(buf.Bytes())
		out = append(out, string(b[1:len(b)-1]))
	}
	out = append(out, url.QueryEscape(v), url.PathEscape(v))
	// A URL's userinfo escapes its own set of characters.
	if u := url.UserPassword("u", v).String(); len(u) > 2 {
		out = append(out, u[2:])
	}
	// The formats' own escapes, for text that reaches a writer rendered
	// (the records themselves are Marker before rendering).
	var x bytes.Buffer
	xml.EscapeText(&x, []byte(v))
	out = append(out, x.String(), html.EscapeString(v), report.EscapeMarkdown(v))
	return out
}

// snapshot is the Spellings to replace now: readers never lock, and a
// slice once returned is never changed.
func (s *Set) snapshot() [][]byte {
	if s == nil {
		return nil
	}
	if p := s.forms.Load(); p != nil {
		return *p
	}
	return nil
}

// current is the Spellings' slice itself, nil with none: a new one each
// time a secret is added, so it tells a caller whether what it found
// clean is still clean.
func (s *Set) current() *[][]byte {
	if s == nil {
		return nil
	}
	if p := s.forms.Load(); p != nil && len(*p) > 0 {
		return p
	}
	return nil
}

// Writer returns w with the secrets Marker.
func (s *Set) Writer(w io.Writer) *Writer { return &Writer{set: s, w: w} }

// Writer writes through to w with every secret replaced. A secret may
// be split across two writes, so the end of a write that could be the start
// of a secret is held back until the next write or Flush.
type Writer struct {
	set     *Set
	w       io.Writer
	mu      sync.Mutex
	pending []byte
}

// Write redacts p and writes it on; it reports len(p) when all went well.
func (r *Writer) Write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	forms := r.set.snapshot()
	if len(forms) == 0 && len(r.pending) == 0 {
		return r.w.Write(p)
	}
	buf := append(r.pending, p...)
	r.pending = nil
	for _, f := range forms {
		if bytes.Contains(buf, f) {
			buf = bytes.ReplaceAll(buf, f, []byte(Marker))
		}
	}
	keep := heldBack(buf, forms)
	if _, err := r.w.Write(buf[:len(buf)-keep]); err != nil {
		return 0, err
	}
	r.pending = append([]byte(nil), buf[len(buf)-keep:]...)
	return len(p), nil
}

// WriteString writes s.
func (r *Writer) WriteString(s string) (int, error) { return r.Write([]byte(s)) }

// Underlying is the writer w writes through to: a terminal stays one
// behind the redactor.
func (r *Writer) Underlying() io.Writer { return r.w }

// Flush writes what was held back.
func (r *Writer) Flush() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.pending) == 0 {
		return nil
	}
	_, err := r.w.Write(r.pending)
	r.pending = nil
	return err
}

// heldBack is the length of the longest end of buf that is the start of a
// secret (and not a whole one, which has been replaced already).
func heldBack(buf []byte, forms [][]byte) int {
	keep := 0
	for _, f := range forms {
		for n := min(len(f)-1, len(buf)); n > keep; n-- {
			if bytes.HasSuffix(buf, f[:n]) {
				keep = n
				break
			}
		}
	}
	return keep
}
