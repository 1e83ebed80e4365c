package main

import (
	"bytes"
	"net/url"
	"reflect"

	"github.com/retrysim/retrysim/simulator"
)

// replace returns v with every spelling of every secret replaced.
func (s *secretSet) replace(v string) string {
	b := []byte(v)
	changed := false
	for _, f := range s.snapshot() {
		if bytes.Contains(b, f) {
			b, changed = bytes.ReplaceAll(b, f, []byte(redacted)), true
		}
	}
	if !changed {
		return v
	}
	return string(b)
}

// redactRecord returns r with the secrets replaced in every text field,
// before any report escapes them for its format (markdown's \_, XML's
// &amp;), which would hide them from a redactor of the rendered text.
// What a handler controls is made printable too (see printable).
func (s *secretSet) redactRecord(r simulator.Record) simulator.Record {
	if len(s.snapshot()) == 0 {
		// No secret to look for (a dry run of a million events, say): only
		// the fields a handler's answer can reach need a look.
		r.Error, r.Signal = printable(r.Error), printable(r.Signal)
		return r
	}
	v := reflect.ValueOf(&r).Elem()
	for i := range v.NumField() {
		f := v.Field(i)
		switch f.Kind() {
		case reflect.String:
			f.SetString(printable(s.replace(f.String())))
		case reflect.Slice:
			if f.Type().Elem().Kind() == reflect.String {
				for j := range f.Len() {
					e := f.Index(j)
					e.SetString(printable(s.replace(e.String())))
				}
			}
		}
	}
	return r
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
