package policies

import (
	"net/http"
	"net/textproto"
)

// setHeaders does what h.Set(key, value) does for each key and value in kv
// (keys and values alternate), with the values in one allocation rather
// than one each: a wire sets its headers on every attempt.
func setHeaders(h http.Header, kv ...string) {
	vals := make([]string, len(kv)/2)
	for i := range vals {
		vals[i] = kv[2*i+1]
		h[textproto.CanonicalMIMEHeaderKey(kv[2*i])] = vals[i : i+1 : i+1]
	}
}
