package redact

import (
	"bytes"
	"reflect"
	"strings"

	"github.com/retrysim/retrysim/simulator"
)

// Replace returns v with every spelling of every secret replaced.
func (s *Set) Replace(v string) string {
	forms := s.snapshot()
	if len(v) == 0 || len(forms) == 0 || len(v) < len(forms[len(forms)-1]) {
		return v // most fields are empty, or shorter than any spelling
	}
	var b []byte
	for _, f := range forms {
		if b == nil {
			if strings.Contains(v, string(f)) {
				b = bytes.ReplaceAll([]byte(v), f, []byte(Marker))
			}
		} else if bytes.Contains(b, f) {
			b = bytes.ReplaceAll(b, f, []byte(Marker))
		}
	}
	if b == nil {
		return v
	}
	return string(b)
}

// Records redacts the records of one run, one at a time: it
// replaces the secrets in every text field, before any report escapes them
// for its format (markdown's \_, XML's &amp;), which would hide them from a
// redactor of the rendered text, and makes printable what a handler
// controls (see Printable). It runs once per record, so it remembers the
// texts it has found clean: most of a record's text is the same from one
// record to the next (the provider, the scenario, an injected fault's
// error, made once by the engine), and a text seen before costs a
// comparison of its length, or of its pointer, instead of a scan. Only text
// new to it (a handler's reason phrase, a transport error) is read.
type Records struct {
	sec   *Set
	spare simulator.Record
	// forms is the secrets' Spellings clean was found clean against: a
	// secret added since makes every text worth a look again.
	forms *[][]byte
	clean knownClean
}

// NewRecords returns a redactor of records for the secrets of sec (nil:
// none).
func NewRecords(sec *Set) *Records { return &Records{sec: sec} }

// Redact returns r with its text Marker. r is lent by the engine and
// never changed: it is returned as it is when nothing needs replacing
// (nearly always), and otherwise a changed copy, valid until the next call.
func (d *Records) Redact(r *simulator.Record) *simulator.Record {
	if p := d.sec.current(); p != d.forms {
		d.forms, d.clean = p, knownClean{}
	}
	if d.forms == nil {
		// No secret to look for (a dry run of a million events, say): only
		// the fields a handler's answer can reach need a look.
		e, sig, to, led := d.text(r.Error), d.text(r.Signal), d.text(r.RedirectRefused), d.text(r.RedirectUnreached)
		if e == r.Error && sig == r.Signal && to == r.RedirectRefused && led == r.RedirectUnreached {
			return r
		}
		d.spare = *r
		d.spare.Error, d.spare.Signal, d.spare.RedirectRefused, d.spare.RedirectUnreached = e, sig, to, led
		return &d.spare
	}
	return d.fields(r)
}

// text is v Marker and printable, from what it remembers when it can.
func (d *Records) text(v string) string {
	if v == "" || d.clean.has(v) {
		return v
	}
	c := Printable(d.sec.Replace(v))
	if c == v {
		d.clean.add(v)
	}
	return c
}

// fields is redact's every field, by reflection (a field added to the
// record is Marker without a word here), copying r into spare at the
// first field that changes.
func (d *Records) fields(r *simulator.Record) *simulator.Record {
	out := r
	field := func(i []int) reflect.Value {
		if out == r {
			d.spare = *r
			out = &d.spare
		}
		return reflect.ValueOf(out).Elem().FieldByIndex(i)
	}
	v := reflect.ValueOf(r).Elem()
	for _, sf := range recordFields {
		i := sf.Index
		f := v.FieldByIndex(i)
		switch f.Kind() {
		case reflect.String:
			if c := d.text(f.String()); c != f.String() {
				field(i).SetString(c)
			}
		case reflect.Slice:
			if f.Type().Elem().Kind() != reflect.String {
				continue
			}
			for j := range f.Len() {
				if c := d.text(f.Index(j).String()); c != f.Index(j).String() {
					o := field(i)
					if o.Pointer() == f.Pointer() { // the copy's own slice, once
						o.Set(reflect.AppendSlice(reflect.MakeSlice(f.Type(), 0, f.Len()), f))
					}
					o.Index(j).SetString(c)
				}
			}
		}
	}
	return out
}

// recordFields are the record's fields, those of its embedded structs
// (each kind's) included, the structs themselves left out.
var recordFields = func() []reflect.StructField {
	var out []reflect.StructField
	for _, f := range reflect.VisibleFields(reflect.TypeFor[simulator.Record]()) {
		if !f.Anonymous {
			out = append(out, f)
		}
	}
	return out
}()

// knownClean is the last few texts found to need no change, replaced in
// turn. Comparing a text with one of them costs a comparison of lengths,
// then of pointers (the same text made once by the engine), and only then
// of bytes.
type knownClean struct {
	texts [16]string
	next  int
}

func (k *knownClean) has(v string) bool {
	for _, t := range k.texts {
		if t == v {
			return true
		}
	}
	return false
}

func (k *knownClean) add(v string) {
	k.texts[k.next] = v
	k.next = (k.next + 1) % len(k.texts)
}
