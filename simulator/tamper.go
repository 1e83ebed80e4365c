package simulator

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/retrysim/retrysim/scenarios"
)

// tamper changes a body after it was signed, as someone on the way would:
// one field's value (scenarios.ChangeValue), or the same JSON re-serialised
// with different spacing (scenarios.ChangeSpacing). keeps reports whether a
// changed body still carries the event's dedup id, so that the change never
// touches it. It returns the changed body, what was done in words, and
// false when no such change could be made.
func tamper(body []byte, contentType, change string, keeps func([]byte) bool) ([]byte, string, bool) {
	if strings.HasPrefix(contentType, "application/x-www-form-urlencoded") {
		return tamperForm(body, keeps)
	}
	if change == scenarios.ChangeSpacing {
		return respace(body, keeps)
	}
	return tamperJSON(body, keeps)
}

// respace re-serialises JSON with two-space indentation (or compactly, if
// it was indented already).
func respace(body []byte, keeps func([]byte) bool) ([]byte, string, bool) {
	var buf bytes.Buffer
	if err := json.Indent(&buf, body, "", "  "); err == nil && !bytes.Equal(buf.Bytes(), body) && keeps(buf.Bytes()) {
		return buf.Bytes(), "the same JSON re-serialised with two-space indentation after signing", true
	}
	buf.Reset()
	if err := json.Compact(&buf, body); err == nil && !bytes.Equal(buf.Bytes(), body) && keeps(buf.Bytes()) {
		return buf.Bytes(), "the same JSON re-serialised without spacing after signing", true
	}
	return nil, "", false
}

// jsonValue is one scalar value in a JSON document: where its text is and
// the key it belongs to ("" in an array).
type jsonValue struct {
	start, end int
	key        string
	number     bool
}

// jsonValues lists the scalar values of a JSON document in order.
func jsonValues(body []byte) []jsonValue {
	type frame struct{ object, wantKey bool }
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var stack []frame
	var keys []string
	var out []jsonValue
	for {
		before := int(dec.InputOffset())
		tok, err := dec.Token()
		if err != nil {
			return out
		}
		end := int(dec.InputOffset())
		start := before
		for start < end && strings.IndexByte(" \t\r\n:,", body[start]) >= 0 {
			start++
		}
		top := len(stack) - 1
		switch t := tok.(type) {
		case json.Delim:
			switch t {
			case '{', '[':
				stack = append(stack, frame{object: t == '{', wantKey: t == '{'})
				keys = append(keys, "")
			default:
				stack, keys = stack[:top], keys[:top]
				if top > 0 && stack[top-1].object {
					stack[top-1].wantKey = true
				}
			}
			continue
		case string:
			if top >= 0 && stack[top].object && stack[top].wantKey {
				keys[top] = t
				stack[top].wantKey = false
				continue
			}
		}
		v := jsonValue{start: start, end: end}
		if top >= 0 && stack[top].object {
			v.key = keys[top]
			stack[top].wantKey = true
		}
		_, v.number = tok.(json.Number)
		if _, str := tok.(string); v.number || str {
			out = append(out, v) // true, false and null have no letter to change
		}
	}
}

// tamperJSON changes one value: an amount if there is one, else the first
// number, else the first string, ids last, and never the dedup id.
func tamperJSON(body []byte, keeps func([]byte) bool) ([]byte, string, bool) {
	vals := jsonValues(body)
	var order []jsonValue
	isID := func(v jsonValue) bool { k := strings.ToLower(v.key); return k == "id" || strings.HasSuffix(k, "_id") }
	for _, pass := range []func(v jsonValue) bool{
		func(v jsonValue) bool { return v.number && strings.Contains(strings.ToLower(v.key), "amount") },
		func(v jsonValue) bool { return v.number && !isID(v) },
		func(v jsonValue) bool { return body[v.start] == '"' && !isID(v) },
		func(v jsonValue) bool { return true },
	} {
		for _, v := range vals {
			if pass(v) {
				order = append(order, v)
			}
		}
	}
	tried := map[int]bool{}
	for _, v := range order {
		if tried[v.start] {
			continue
		}
		tried[v.start] = true
		old := string(body[v.start:v.end])
		changed, ok := bumpLast(old)
		if !ok {
			continue
		}
		out := make([]byte, 0, len(body))
		out = append(append(append(out, body[:v.start]...), changed...), body[v.end:]...)
		if !keeps(out) {
			continue
		}
		what := "a value in an array"
		if v.key != "" {
			what = fmt.Sprintf("%q", v.key)
		}
		if len(old) > 80 {
			return out, fmt.Sprintf("%s changed after signing", what), true
		}
		return out, fmt.Sprintf("%s changed from %s to %s after signing", what, old, changed), true
	}
	return nil, "", false
}

// tamperForm changes one form parameter's value, preferring one that ends
// in a digit (a phone number, an amount).
func tamperForm(body []byte, keeps func([]byte) bool) ([]byte, string, bool) {
	pairs := strings.Split(string(body), "&")
	for _, digitsFirst := range []bool{true, false} {
		for i, p := range pairs {
			k, v, ok := strings.Cut(p, "=")
			if !ok || v == "" || (digitsFirst && !isDigit(v[len(v)-1])) {
				continue
			}
			changed, ok := bumpLast(v)
			if !ok {
				continue
			}
			next := append([]string(nil), pairs...)
			next[i] = k + "=" + changed
			out := []byte(strings.Join(next, "&"))
			if keeps(out) {
				return out, fmt.Sprintf("form parameter %s changed after signing", k), true
			}
		}
	}
	return nil, "", false
}

// bumpLast changes the last letter or digit of s that is not escaped to the
// next one (9 to 0, z to a), keeping s valid wherever it was.
func bumpLast(s string) (string, bool) {
	b := []byte(s)
	for i := len(b) - 1; i >= 0; i-- {
		if i > 0 && b[i-1] == '\\' {
			continue
		}
		switch c := b[i]; {
		case c >= '0' && c <= '8', c >= 'a' && c <= 'y', c >= 'A' && c <= 'Y':
			b[i] = c + 1
		case c == '9':
			b[i] = '0'
		case c == 'z':
			b[i] = 'a'
		case c == 'Z':
			b[i] = 'A'
		default:
			continue
		}
		return string(b), true
	}
	return s, false
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
