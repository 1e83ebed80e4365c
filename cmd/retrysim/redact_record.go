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

// redactRecord replaces the secrets in every text field of r, before
// any report escapes them for its format (markdown's \_, XML's &amp;),
// which would hide them from a redactor of the rendered text. What a
// handler controls is made printable too (see printable). It runs once
// per record, so the common case (no secret to look for) stays cheap.
func (s *secretSet) redactRecord(r *simulator.Record) {
	if len(s.snapshot()) == 0 {
		// No secret to look for (a dry run of a million events, say): only
		// the fields a handler's answer can reach need a look.
		r.Error, r.Signal = printable(r.Error), printable(r.Signal)
		return
	}
	s.redactFields(r)
}

// redactFields is redactRecord's every field, by reflection on a copy (so
// that the caller's record stays off the heap).
func (s *secretSet) redactFields(r *simulator.Record) {
	c := *r
	v := reflect.ValueOf(&c).Elem()
	for i := range v.NumField() {
		f := v.Field(i)
		switch f.Kind() {
		case reflect.String:
			if f.Len() > 0 {
				f.SetString(printable(s.replace(f.String())))
			}
		case reflect.Slice:
			if f.Type().Elem().Kind() == reflect.String {
				for j := range f.Len() {
					e := f.Index(j)
					e.SetString(printable(s.replace(e.String())))
				}
			}
		}
	}
	*r = c
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
