package main

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"html"
	"io"
	"maps"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/retrysim/retrysim/policies"
	"github.com/retrysim/retrysim/report"
)

// redacted stands in for a secret in anything retrysim writes.
const redacted = "[REDACTED]"

// minRedacted is the shortest secret that is redacted. Redaction replaces
// every occurrence, and a short secret is often an ordinary word of the
// output ("test" in stripe-test, "delivered" as a fate, "retrysim"):
// replacing those garbled reports and JSON enums. No provider issues secrets
// this short; a user who picks one is told (see redactGiven).
const minRedacted = 12

// secretSet is the signing secrets of one command line. Every writer made by
// writer replaces them, and the ways they are spelled in JSON, Go-quoted
// strings and URLs, with [REDACTED].
type secretSet struct {
	mu    sync.Mutex               // serialises add
	forms atomic.Pointer[[][]byte] // every spelling of every secret, longest first; replaced whole, never changed
}

// add registers secrets; short and repeated ones are ignored.
func (s *secretSet) add(secrets ...string) {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	forms := slices.Clone(s.snapshot())
	for _, v := range secrets {
		if len(v) < minRedacted {
			continue
		}
		for _, f := range spellings(v) {
			if len(f) >= minRedacted && !slices.ContainsFunc(forms, func(b []byte) bool { return string(b) == f }) {
				forms = append(forms, []byte(f))
			}
		}
	}
	slices.SortStableFunc(forms, func(a, b []byte) int { return len(b) - len(a) })
	s.forms.Store(&forms)
}

// spellings are the ways v may appear in retrysim's output.
func spellings(v string) []string {
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
	// (the records themselves are redacted before rendering).
	var x bytes.Buffer
	xml.EscapeText(&x, []byte(v))
	out = append(out, x.String(), html.EscapeString(v), report.EscapeMarkdown(v))
	return out
}

// snapshot is the spellings to replace now: readers never lock, and a
// slice once returned is never changed.
func (s *secretSet) snapshot() [][]byte {
	if s == nil {
		return nil
	}
	if p := s.forms.Load(); p != nil {
		return *p
	}
	return nil
}

// current is the spellings' slice itself, nil with none: a new one each
// time a secret is added, so it tells a caller whether what it found
// clean is still clean.
func (s *secretSet) current() *[][]byte {
	if s == nil {
		return nil
	}
	if p := s.forms.Load(); p != nil && len(*p) > 0 {
		return p
	}
	return nil
}

// writer returns w with the secrets redacted.
func (s *secretSet) writer(w io.Writer) *redactWriter { return &redactWriter{set: s, w: w} }

// redactWriter writes through to w with every secret replaced. A secret may
// be split across two writes, so the end of a write that could be the start
// of a secret is held back until the next write or Flush.
type redactWriter struct {
	set     *secretSet
	w       io.Writer
	mu      sync.Mutex
	pending []byte
}

// Write redacts p and writes it on; it reports len(p) when all went well.
func (r *redactWriter) Write(p []byte) (int, error) {
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
			buf = bytes.ReplaceAll(buf, f, []byte(redacted))
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
func (r *redactWriter) WriteString(s string) (int, error) { return r.Write([]byte(s)) }

// Flush writes what was held back.
func (r *redactWriter) Flush() error {
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

type secretsKey struct{}

// withSecrets carries the command line's secret set to the commands.
func withSecrets(ctx context.Context, s *secretSet) context.Context {
	return context.WithValue(ctx, secretsKey{}, s)
}

// secretsOf returns the secret set of a command's context, or nil (whose
// add does nothing) when there is none.
func secretsOf(ctx context.Context) *secretSet {
	if ctx == nil {
		return nil
	}
	s, _ := ctx.Value(secretsKey{}).(*secretSet)
	return s
}

// secretValues returns the value part of every --secret provider=value
// given, well-formed or not, so that it is redacted before anything is
// checked.
func secretValues(pairs []string) []string {
	out := make([]string, 0, len(pairs))
	for _, p := range pairs {
		if _, v, ok := strings.Cut(p, "="); ok {
			out = append(out, v)
		} else {
			out = append(out, p)
		}
	}
	return out
}

// redactGiven registers the secrets the user gave, which must never be
// written: --secret values (well-formed or not), RETRYSIM_SECRET_<PROVIDER>
// and the config file's secrets. Generated secrets are not secret: they are
// printed on purpose. A secret too short to redact is named on w by its
// provider and length, never its value.
func (st *settings) redactGiven(ctx context.Context, w io.Writer, flagPairs []string) {
	s := secretsOf(ctx)
	s.add(secretValues(flagPairs)...)
	short := map[string]int{}
	for _, p := range flagPairs {
		// A pair without a provider is parseSecrets' to report.
		if prov, v, ok := strings.Cut(p, "="); ok && strings.TrimSpace(prov) != "" && v != "" && len(v) < minRedacted {
			short[prov] = len(v)
		}
	}
	for _, prov := range policies.WireNames() {
		if v, ok := st.secret(prov); ok {
			s.add(v)
			if _, given := short[prov]; !given && v != "" && len(v) < minRedacted {
				short[prov] = len(v)
			}
		}
	}
	for _, prov := range slices.Sorted(maps.Keys(short)) {
		fmt.Fprintf(w, "retrysim: the %s secret is %d %s long: too short to be safe, and too short to redact from the output (under %d characters it would garble ordinary words); it is used as given\n", prov, short[prov], policies.Plural(short[prov], "character", "characters"), minRedacted)
	}
}
