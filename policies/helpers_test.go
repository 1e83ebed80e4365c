package policies

import (
	"net/http"
	"testing"
	"time"
)

// Helpers the policy tests share.

func mustLookup(t *testing.T, name string) Policy {
	t.Helper()
	p, err := Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// deliver builds attempt n of event seq as the engine would, and returns
// its headers and body.
func deliver(w Wire, seq int, typ string, n int, secret string, signedAt time.Time) (http.Header, []byte, Event) {
	ev := Event{Seq: seq, Seed: uint64(seq)*7919 + 17, Type: typ, Created: time.Date(2026, 1, 1, 0, seq, 0, 0, time.UTC)}
	w.NewEvent(&ev)
	body, _ := w.Body(ev)
	h := http.Header{}
	w.Header(h, Delivery{Event: ev, N: n, Body: body, URL: "http://127.0.0.1:9/webhooks/x", Secret: secret, SignedAt: signedAt, RetryReason: "http_error"})
	return h, body, ev
}
