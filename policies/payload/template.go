// Package payload makes webhook bodies from a user's own payloads: a body
// as the provider sends it (saved from a dashboard, a "recent deliveries"
// page, `stripe events retrieve` or a capture) becomes the template of
// every event. Per event only what must differ is replaced, in place: the
// event's id and its time, where the provider's body carries them
// (policies.BodyFields). Every other byte is kept as the file has it: key
// order, spacing and fields retrysim knows nothing of. Overrides set a
// field for every event, and placeholders in the file's strings let a
// field vary per event:
//
//	${seq}             the event's number in the run, from 1
//	${id}              the event's dedup id
//	${time}, ${unix}   the event's time, RFC 3339 or Unix seconds
//	${object}          the object the event is about (events about one share it)
//	${objectnum}       the same, as a 13-digit number (Shopify-like ids)
//	${pick a b 'c d'}  one of the values, picked from the seed and the event
//	${raw NAME …}      the value as JSON in place of the whole string ("${raw seq}" → 7)
//	$${                a literal ${
package payload

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/retrysim/retrysim/policies"
)

// Template is one payload file, ready to make every event's body.
type Template struct {
	// File names the file, for messages.
	File string
	// Type is the event type the payload says (Stripe's "type", Twilio's
	// MessageStatus), or the one it was given; "" when neither.
	Type string

	src    []byte
	ctype  string
	holes  []hole
	fields policies.BodyFields
	wire   policies.Wire
}

// holeKind says what fills a hole.
type holeKind uint8

const (
	holeID    holeKind = iota // the event's id
	holeTime                  // the event's time
	holeValue                 // fixed JSON (an override)
	holeParts                 // a string with placeholders
)

// hole is a span of the file replaced per event.
type hole struct {
	start, end int
	kind       holeKind
	value      []byte
	parts      []part
}

// Parse makes a template of the payload data read from file for wire,
// with overrides applied (those naming another provider are ignored; one
// naming a field the file does not have is an error). typ is the event
// type to use when the payload does not say one; a payload that says
// another is an error.
func Parse(wire policies.Wire, file string, data []byte, typ string, overrides []Override) (*Template, error) {
	// The content type is the wire's own (Stripe's has a charset).
	sample := policies.Event{Type: wire.DefaultEventType()}
	wire.NewEvent(&sample)
	_, ctype := wire.Body(sample)
	return parse(wire, file, data, typ, overrides, ctype)
}

// parse is Parse, with the content type of the bodies given.
func parse(wire policies.Wire, file string, data []byte, typ string, overrides []Override, ctype string) (*Template, error) {
	fields, err := policies.BodyFieldsOf(wire)
	if err != nil {
		return nil, &Error{File: file, Err: err}
	}
	data = bytes.TrimPrefix(data, []byte("\ufeff"))
	t := &Template{File: file, src: data, fields: fields, wire: wire, ctype: ctype}
	spans, err := scan(file, data)
	if err != nil {
		return nil, err
	}
	byPath := make(map[string]span, len(spans))
	for _, s := range spans {
		if _, dup := byPath[s.path]; !dup {
			byPath[s.path] = s
		}
	}
	if fields.Form {
		if err := checkForm(file, data, spans); err != nil {
			return nil, err
		}
	}
	var holes []hole
	// Overrides first: they replace whole values, and nothing inside one
	// is filled in.
	for _, o := range overrides {
		if o.Provider != "" && o.Provider != wire.Name() {
			continue
		}
		s, ok := byPath[o.Path]
		if !ok || s.path == "" {
			return nil, &Error{File: file, Err: fmt.Errorf("%w %s: the payload has no field %s%s", ErrBadOverride, o.Path, o.Path, nearest(o.Path, spans))}
		}
		if fields.ID != "" && within(fields.ID, o.Path) {
			return nil, &Error{File: file, Err: fmt.Errorf("%w %s: %s holds the event's id, which retrysim makes fresh for every event and run", ErrBadOverride, o.Path, fields.ID)}
		}
		h := hole{start: s.start, end: s.end, kind: holeValue, value: o.Value}
		if n := 0; bytes.Contains(o.Value, []byte("${")) && o.Value[0] == '"' {
			parts, _, err := parseParts(o.Value[1:len(o.Value)-1], &n)
			if err != nil {
				return nil, &Error{File: file, Err: fmt.Errorf("%w %s: %w", ErrBadOverride, o.Path, err)}
			}
			h.kind, h.parts = holeParts, parts
		}
		for _, other := range holes {
			if other.start < h.end && h.start < other.end {
				return nil, &Error{File: file, Err: fmt.Errorf("%w %s: it overlaps another override of the same field or one around it", ErrBadOverride, o.Path)}
			}
		}
		holes = append(holes, h)
	}
	covered := func(s span) bool {
		for _, h := range holes {
			if h.kind <= holeTime {
				continue
			}
			if h.start <= s.start && s.end <= h.end {
				return true
			}
		}
		return false
	}
	if fields.ID != "" {
		s, ok := byPath[fields.ID]
		if !ok {
			return nil, &Error{File: file, Line: 1, Err: fmt.Errorf("%w: %s puts the event's id in the body's %s, and this payload has none: is it a %s payload?", ErrInvalid, wire.Name(), fields.ID, wire.Name())}
		}
		holes = append(holes, hole{start: s.start, end: s.end, kind: holeID})
	}
	if fields.Time != "" {
		if s, ok := byPath[fields.Time]; ok && !covered(s) {
			holes = append(holes, hole{start: s.start, end: s.end, kind: holeTime})
		}
	}
	n := 0
	for _, s := range spans {
		if s.kind != '"' || covered(s) || !bytes.Contains(data[s.start:s.end], []byte("${")) {
			continue
		}
		if s.path == fields.ID || s.path == fields.Time {
			continue // replaced whole
		}
		parts, off, err := parseParts(data[s.start+1:s.end-1], &n)
		if err != nil {
			return nil, errAt(file, data, s.start+1+off, "%v", err)
		}
		if fields.Type != "" && s.path == fields.Type {
			return nil, errAt(file, data, s.start, "the event type (%s) cannot vary from event to event: write it without placeholders", fields.Type)
		}
		holes = append(holes, hole{start: s.start, end: s.end, kind: holeParts, parts: parts})
	}
	slices.SortFunc(holes, func(a, b hole) int { return a.start - b.start })
	t.holes = holes
	if err := t.readType(byPath, typ); err != nil {
		return nil, err
	}
	return t, nil
}

// within says path is field or inside it.
func within(path, field string) bool {
	return path == field || strings.HasPrefix(path, field+".")
}

// nearest suggests the field of spans nearest to path, when one is close.
func nearest(path string, spans []span) string {
	best, score := "", 4
	for _, s := range spans {
		if d := distance(path, s.path); d < score && s.path != "" {
			best, score = s.path, d
		}
	}
	if best == "" {
		return ""
	}
	return " (did you mean " + best + "?)"
}

// distance is the Levenshtein distance between a and b, capped at 4.
func distance(a, b string) int {
	if d := len(a) - len(b); d > 3 || d < -3 {
		return 4
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			c := prev[j-1]
			if a[i-1] != b[j-1] {
				c++
			}
			cur[j] = min(c, prev[j]+1, cur[j-1]+1)
		}
		prev, cur = cur, prev
	}
	return min(prev[len(b)], 4)
}

// readType reads the event type the payload says, after the overrides,
// and checks it against typ, the one given.
func (t *Template) readType(byPath map[string]span, typ string) error {
	t.Type = typ
	if t.fields.Type == "" {
		return nil
	}
	s, ok := byPath[t.fields.Type]
	if !ok {
		return nil
	}
	body := t.body(policies.Event{}, 0)
	var doc any
	if err := json.Unmarshal(body, &doc); err != nil {
		return &Error{File: t.File, Err: fmt.Errorf("%w: the body made from it is not JSON: %w", ErrInvalid, err)}
	}
	said, isString := lookup(doc, t.fields.Type).(string)
	if !isString {
		return errAt(t.File, t.src, s.start, "the event type (%s) is not a string", t.fields.Type)
	}
	if err := CheckType(said); err != nil {
		return errAt(t.File, t.src, s.start, "%v", err)
	}
	if typ != "" && typ != said {
		return errAt(t.File, t.src, s.start, "the payload's event type is %s, and the type given is %s: drop one", said, typ)
	}
	t.Type = said
	return nil
}

// CheckType checks that an event type can be sent: printable ASCII without
// spaces, at most 256 bytes (a header carries it for some providers).
func CheckType(typ string) error {
	if typ == "" || len(typ) > 256 {
		return fmt.Errorf("%w: an event type is 1 to 256 characters, got %d", ErrInvalid, len(typ))
	}
	for i := 0; i < len(typ); i++ {
		if c := typ[i]; c <= ' ' || c >= 0x7f {
			return fmt.Errorf("%w: the event type %s has a character a header cannot carry (byte %d)", ErrInvalid, strconv.Quote(typ), i+1)
		}
	}
	return nil
}

// lookup follows a dotted path in a decoded document.
func lookup(doc any, path string) any {
	for _, k := range strings.Split(path, ".") {
		switch v := doc.(type) {
		case map[string]any:
			doc = v[k]
		case []any:
			i, err := strconv.Atoi(k)
			if err != nil || i < 0 || i >= len(v) {
				return nil
			}
			doc = v[i]
		default:
			return nil
		}
	}
	return doc
}

// body makes the JSON body of ev in a run of seed: the file's bytes with
// the holes filled.
func (t *Template) body(ev policies.Event, seed uint64) []byte {
	dst := make([]byte, 0, len(t.src)+64)
	pos := 0
	for i := range t.holes {
		h := &t.holes[i]
		dst = append(dst, t.src[pos:h.start]...)
		switch h.kind {
		case holeID:
			dst = append(appendEscaped(append(dst, '"'), t.fields.IDValue(t.wire, ev)), '"')
		case holeTime:
			dst = t.fields.AppendTime(dst, ev)
		case holeValue:
			dst = append(dst, h.value...)
		case holeParts:
			dst = appendParts(dst, h.parts, &ev, seed)
		}
		pos = h.end
	}
	return append(dst, t.src[pos:]...)
}

// Body makes the body of ev in a run of seed and its content type: JSON,
// or, for a wire that sends form parameters, the payload's fields
// form-encoded in the file's order.
func (t *Template) Body(ev policies.Event, seed uint64) ([]byte, string) {
	b := t.body(ev, seed)
	if t.fields.Form {
		return formBody(b), t.ctype
	}
	return b, t.ctype
}
