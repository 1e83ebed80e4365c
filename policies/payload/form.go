package payload

import (
	"bytes"
	"encoding/json"
	"net/url"
	"strings"
)

// A wire that sends form parameters (Twilio) takes its payload as a JSON
// object of the parameters: each value a string, a number, a boolean or a
// list of them (a parameter given more than once). The body is the
// parameters form-encoded in the file's order; Twilio signs the decoded
// parameters, sorted, so the order and the encoding are not what a
// handler's check depends on.

// checkForm checks that the payload's fields can be form parameters.
func checkForm(file string, data []byte, spans []span) error {
	for _, s := range spans {
		depth := strings.Count(s.path, ".") + 1
		switch {
		case s.path == "":
		case depth == 1 && s.kind == '{':
			return errAt(file, data, s.start, "form parameter %s is an object: a parameter is a string, a number, a boolean or a list of them", s.path)
		case depth == 2 && s.kind != '"' && s.kind != '0' && s.kind != 't':
			return errAt(file, data, s.start, "form parameter %s holds a nested value: a list holds strings, numbers or booleans", s.path)
		case depth > 2:
			return errAt(file, data, s.start, "form parameter %s is nested too deep", s.path)
		}
	}
	return nil
}

// formBody encodes a JSON object checked by checkForm as form parameters,
// in its order. null values are left out.
func formBody(doc []byte) []byte {
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	var out []byte
	add := func(k string, v any) {
		var s string
		switch v := v.(type) {
		case nil:
			return
		case string:
			s = v
		case json.Number:
			s = v.String()
		case bool:
			if v {
				s = "true"
			} else {
				s = "false"
			}
		}
		if len(out) > 0 {
			out = append(out, '&')
		}
		out = append(out, url.QueryEscape(k)...)
		out = append(out, '=')
		out = append(out, url.QueryEscape(s)...)
	}
	if _, err := dec.Token(); err != nil {
		return out
	}
	for dec.More() {
		kt, err := dec.Token()
		if err != nil {
			return out
		}
		var v any
		if err := dec.Decode(&v); err != nil {
			return out
		}
		if list, ok := v.([]any); ok {
			for _, e := range list {
				add(kt.(string), e)
			}
			continue
		}
		add(kt.(string), v)
	}
	return out
}
