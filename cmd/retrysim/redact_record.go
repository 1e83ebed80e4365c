package main

import (
	"bytes"
	"net/url"
	"reflect"
	"strings"

	"github.com/retrysim/retrysim/simulator"
)

// replace returns v with every spelling of every secret replaced.
func (s *secretSet) replace(v string) string {
	forms := s.snapshot()
	if len(v) == 0 || len(forms) == 0 || len(v) < len(forms[len(forms)-1]) {
		return v // most fields are empty, or shorter than any spelling
	}
	var b []byte
	for _, f := range forms {
		if b == nil {
			if strings.Contains(v, string(f)) {
				b = bytes.ReplaceAll([]byte(v), f, []byte(redacted))
			}
		} else if bytes.Contains(b, f) {
			b = bytes.ReplaceAll(b, f, []byte(redacted))
		}
	}
	if b == nil {
		return v
	}
	return string(b)
}

// redactRecord returns r with the secrets replaced in every text field,
// before any report escapes them for its format (markdown's \_, XML's
// &amp;), which would hide them from a redactor of the rendered text. What
// a handler controls is made printable too (see printable). r is lent by
// the engine and never changed: it is returned as it is when nothing needs
// replacing (nearly always), and otherwise a changed copy in spare. It runs
// once per record, so the common case (no secret to look for) stays cheap.
func (s *secretSet) redactRecord(r, spare *simulator.Record) *simulator.Record {
	if len(s.snapshot()) == 0 {
		// No secret to look for (a dry run of a million events, say): only
		// the fields a handler's answer can reach need a look.
		e, sig := printable(r.Error), printable(r.Signal)
		if e == r.Error && sig == r.Signal {
			return r
		}
		*spare = *r
		spare.Error, spare.Signal = e, sig
		return spare
	}
	return s.redactFields(r, spare)
}

// redactFields is redactRecord's every field, by reflection, copying r
// into spare at the first field that changes.
func (s *secretSet) redactFields(r, spare *simulator.Record) *simulator.Record {
	out := r
	field := func(i int) reflect.Value {
		if out == r {
			*spare = *r
			out = spare
		}
		return reflect.ValueOf(out).Elem().Field(i)
	}
	v := reflect.ValueOf(r).Elem()
	for i := range v.NumField() {
		f := v.Field(i)
		switch f.Kind() {
		case reflect.String:
			if f.Len() > 0 {
				if c := printable(s.replace(f.String())); c != f.String() {
					field(i).SetString(c)
				}
			}
		case reflect.Slice:
			if f.Type().Elem().Kind() != reflect.String {
				continue
			}
			for j := range f.Len() {
				if c := printable(s.replace(f.Index(j).String())); c != f.Index(j).String() {
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

// displayURL is rawURL as reports show it: a password in its userinfo is
// masked (the request still sends it).
func displayURL(rawURL string) string {
	u, err := url.Parse(rawURL)
	if err != nil || u.User == nil {
		return rawURL
	}
	return u.Redacted()
}

// urlSecrets are the credentials in rawURL's userinfo, to be redacted
// wherever the URL is quoted whole (an error, a log line).
func urlSecrets(rawURL string) []string {
	u, err := url.Parse(rawURL)
	if err != nil || u.User == nil {
		return nil
	}
	out := []string{u.User.Username()}
	if p, ok := u.User.Password(); ok {
		out = append(out, p)
	}
	return out
}
