package simulator

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// RecordDecoder decodes one line of a results stream into a Record, four
// to five times faster than encoding/json, with the same result. It reads
// the JSON that Record.MarshalJSON writes: one flat object, keys spelled
// as recordJSON's tags, values of the fields' own types. A
// line it does not read that way (a key it does not know or spelled in
// another case, a null, an escape in a key, a number an int cannot hold,
// a syntax error) it leaves to encoding/json whole, so that what a line
// decodes to, and the error a bad line gets, are encoding/json's.
//
// Its table of fields is made from recordJSON's tags, so a field added to
// the stream is read without a word here, as long as it is of a
// type the table knows (TestDecoderKnowsEveryField).
type RecordDecoder struct {
	fields map[string]fieldDecoder
	// order is the fields in the record's order, the order JSONLWriter
	// writes them in: the next key is looked for there first, from the
	// field after the last one read.
	order []namedField
	// last is the last text read into each field: the kinds, names,
	// outcomes, faults and errors of a stream repeat from one record to
	// the next, and a repeat is not allocated again.
	last []string
	// w is the line as the stream spells it, before it becomes a Record.
	w recordJSON
}

type namedField struct {
	name string
	fieldDecoder
}

// fieldDecoder is where one key's value goes, and what type it has.
type fieldDecoder struct {
	index int
	typ   fieldType
}

type fieldType int

const (
	fieldString fieldType = iota + 1
	fieldInt
	fieldUint
	fieldFloat
	fieldBool
	fieldTime
	fieldTimePtr
	fieldFloats
	fieldSpans // [][2]float64
)

var (
	timeType = reflect.TypeFor[time.Time]()
	spanType = reflect.TypeFor[[2]float64]()
)

// NewRecordDecoder returns a decoder of results stream lines.
func NewRecordDecoder() *RecordDecoder {
	t := reflect.TypeFor[recordJSON]()
	d := &RecordDecoder{fields: map[string]fieldDecoder{}, last: make([]string, t.NumField())}
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "" || name == "-" || !f.IsExported() {
			continue
		}
		if typ := typeOf(f.Type); typ != 0 {
			d.fields[name] = fieldDecoder{index: i, typ: typ}
			d.order = append(d.order, namedField{name, d.fields[name]})
		}
	}
	return d
}

// typeOf is the decoder's type for a field of type t, 0 for one it leaves
// to encoding/json.
func typeOf(t reflect.Type) fieldType {
	switch {
	case t == timeType:
		return fieldTime
	case t.Kind() == reflect.Pointer && t.Elem() == timeType:
		return fieldTimePtr
	case t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Float64:
		return fieldFloats
	case t.Kind() == reflect.Slice && t.Elem() == spanType:
		return fieldSpans
	}
	switch t.Kind() {
	case reflect.String:
		return fieldString
	case reflect.Int, reflect.Int64:
		return fieldInt
	case reflect.Uint64:
		return fieldUint
	case reflect.Float64:
		return fieldFloat
	case reflect.Bool:
		return fieldBool
	}
	return 0
}

// Decode sets rec from line, which JSON Lines' framing left without its
// newline; it returns encoding/json's error for a line that is not a
// record.
func (d *RecordDecoder) Decode(line []byte, rec *Record) error {
	d.w = recordJSON{}
	if d.fast(line, &d.w) {
		d.w.toRecord(rec)
		return nil
	}
	*rec = Record{}
	return json.Unmarshal(line, rec)
}

// fast decodes line into rec the quick way, and reports false for a line
// it leaves to encoding/json.
func (d *RecordDecoder) fast(b []byte, rec *recordJSON) bool {
	v := reflect.ValueOf(rec).Elem()
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return false
	}
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		return skipSpace(b, i+1) == len(b)
	}
	next := 0 // in order
	for {
		if i >= len(b) || b[i] != '"' {
			return false
		}
		end := bytes.IndexByte(b[i+1:], '"')
		if end < 0 {
			return false
		}
		key := b[i+1 : i+1+end]
		if bytes.IndexByte(key, '\\') >= 0 {
			return false
		}
		f, ok := d.field(key, &next)
		if !ok {
			return false
		}
		i = skipSpace(b, i+end+2)
		if i >= len(b) || b[i] != ':' {
			return false
		}
		i = skipSpace(b, i+1)
		if i, ok = d.value(b, i, f, v.Field(f.index)); !ok {
			return false
		}
		i = skipSpace(b, i)
		if i >= len(b) {
			return false
		}
		switch b[i] {
		case ',':
			i = skipSpace(b, i+1)
		case '}':
			return skipSpace(b, i+1) == len(b)
		default:
			return false
		}
	}
}

// field is key's field: looked for in order from *next on (a comparison
// of lengths for most), then in the map.
func (d *RecordDecoder) field(key []byte, next *int) (fieldDecoder, bool) {
	for j := *next; j < len(d.order); j++ {
		if d.order[j].name == string(key) {
			*next = j + 1
			return d.order[j].fieldDecoder, true
		}
	}
	f, ok := d.fields[string(key)]
	return f, ok
}

// value reads the value at b[i:] into field, and returns where it ends.
func (d *RecordDecoder) value(b []byte, i int, f fieldDecoder, field reflect.Value) (int, bool) {
	switch f.typ {
	case fieldString:
		s, end, ok := d.text(b, i, f.index)
		if ok {
			field.SetString(s)
		}
		return end, ok
	case fieldInt:
		lit, end, ok := number(b, i)
		n, err := strconv.ParseInt(string(lit), 10, 64)
		if !ok || err != nil || field.OverflowInt(n) {
			return 0, false
		}
		field.SetInt(n)
		return end, true
	case fieldUint:
		lit, end, ok := number(b, i)
		n, err := strconv.ParseUint(string(lit), 10, 64)
		if !ok || err != nil {
			return 0, false
		}
		field.SetUint(n)
		return end, true
	case fieldFloat:
		x, end, ok := float(b, i)
		if ok {
			field.SetFloat(x)
		}
		return end, ok
	case fieldBool:
		switch {
		case bytes.HasPrefix(b[i:], []byte("true")):
			field.SetBool(true)
			return i + 4, true
		case bytes.HasPrefix(b[i:], []byte("false")):
			field.SetBool(false)
			return i + 5, true
		}
		return 0, false
	case fieldTime, fieldTimePtr:
		end, ok := stringEnd(b, i)
		if !ok {
			return 0, false
		}
		var t time.Time
		if t.UnmarshalJSON(b[i:end]) != nil {
			return 0, false
		}
		if f.typ == fieldTime {
			field.Set(reflect.ValueOf(t))
		} else {
			field.Set(reflect.ValueOf(&t))
		}
		return end, true
	case fieldFloats:
		xs := []float64{}
		end, ok := list(b, i, func(j int) (int, bool) {
			x, end, ok := float(b, j)
			xs = append(xs, x)
			return end, ok
		})
		if ok {
			field.Set(reflect.ValueOf(xs))
		}
		return end, ok
	case fieldSpans:
		spans := [][2]float64{}
		end, ok := list(b, i, func(j int) (int, bool) {
			var span [2]float64
			n := 0
			end, ok := list(b, j, func(k int) (int, bool) {
				x, end, ok := float(b, k)
				if n < 2 {
					span[n] = x
				}
				n++
				return end, ok
			})
			spans = append(spans, span)
			return end, ok && n == 2
		})
		if ok {
			field.Set(reflect.ValueOf(spans))
		}
		return end, ok
	}
	return 0, false
}

// text reads the string at b[i:], the same as the last one read into field
// index when it is.
func (d *RecordDecoder) text(b []byte, i, index int) (string, int, bool) {
	if i >= len(b) || b[i] != '"' {
		return "", 0, false
	}
	j := i + 1
	for ; j < len(b); j++ {
		c := b[j]
		if c == '"' {
			break
		}
		if c == '\\' || c < 0x20 || c >= utf8.RuneSelf {
			// An escape, a control character or other than ASCII:
			// encoding/json's own rules, on this string alone.
			end, ok := stringEnd(b, i)
			var s string
			if !ok || json.Unmarshal(b[i:end], &s) != nil {
				return "", 0, false
			}
			return s, end, true
		}
	}
	if j >= len(b) {
		return "", 0, false
	}
	raw := b[i+1 : j]
	if last := d.last[index]; last != string(raw) {
		d.last[index] = string(raw)
	}
	return d.last[index], j + 1, true
}

// stringEnd is the end of the string that starts at b[i], past its
// closing quote.
func stringEnd(b []byte, i int) (int, bool) {
	if i >= len(b) || b[i] != '"' {
		return 0, false
	}
	for j := i + 1; j < len(b); j++ {
		switch b[j] {
		case '\\':
			j++
		case '"':
			return j + 1, true
		}
	}
	return 0, false
}

// number is the JSON number at b[i:], by JSON's grammar, and its end; ok
// is false unless it is an integer (no fraction, no exponent).
func number(b []byte, i int) ([]byte, int, bool) {
	lit, end, integer := numberLiteral(b, i)
	return lit, end, lit != nil && integer
}

// float reads the JSON number at b[i:].
func float(b []byte, i int) (float64, int, bool) {
	lit, end, integer := numberLiteral(b, i)
	if lit == nil {
		return 0, 0, false
	}
	if integer && len(lit) <= 15 {
		// Exactly representable: no parse of the general case.
		n, err := strconv.ParseInt(string(lit), 10, 64)
		if n != 0 || lit[0] != '-' { // -0 keeps its sign below
			return float64(n), end, err == nil
		}
	}
	x, err := strconv.ParseFloat(string(lit), 64)
	return x, end, err == nil
}

// numberLiteral is the number at b[i:] by JSON's grammar (-?int frac? exp?),
// nil if there is none, and whether it has neither fraction nor exponent.
func numberLiteral(b []byte, i int) (lit []byte, end int, integer bool) {
	j := i
	if j < len(b) && b[j] == '-' {
		j++
	}
	switch {
	case j < len(b) && b[j] == '0':
		j++
	case j < len(b) && b[j] >= '1' && b[j] <= '9':
		for j < len(b) && b[j] >= '0' && b[j] <= '9' {
			j++
		}
	default:
		return nil, 0, false
	}
	integer = true
	if j < len(b) && b[j] == '.' {
		integer = false
		j++
		k := j
		for j < len(b) && b[j] >= '0' && b[j] <= '9' {
			j++
		}
		if j == k {
			return nil, 0, false
		}
	}
	if j < len(b) && (b[j] == 'e' || b[j] == 'E') {
		integer = false
		j++
		if j < len(b) && (b[j] == '+' || b[j] == '-') {
			j++
		}
		k := j
		for j < len(b) && b[j] >= '0' && b[j] <= '9' {
			j++
		}
		if j == k {
			return nil, 0, false
		}
	}
	return b[i:j], j, integer
}

// list reads the JSON array at b[i:], each element by elem, and returns
// its end.
func list(b []byte, i int, elem func(int) (int, bool)) (int, bool) {
	if i >= len(b) || b[i] != '[' {
		return 0, false
	}
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == ']' {
		return i + 1, true
	}
	for {
		end, ok := elem(i)
		if !ok {
			return 0, false
		}
		i = skipSpace(b, end)
		if i >= len(b) {
			return 0, false
		}
		switch b[i] {
		case ',':
			i = skipSpace(b, i+1)
		case ']':
			return i + 1, true
		default:
			return 0, false
		}
	}
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}
