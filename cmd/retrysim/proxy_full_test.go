package main

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/retrysim/retrysim/policies"
)

// signedRequest is a delivery of provider's event seq, signed with secret,
// as its forwarding tool posts it to url.
func signedRequest(t *testing.T, provider, secret, url string, seq int) *http.Request {
	t.Helper()
	w, _ := policies.WireFor(provider)
	ev := policies.Event{Seq: seq, Seed: uint64(9000 + seq), Type: w.DefaultEventType(), Created: time.Now()}
	w.NewEvent(&ev)
	body, ctype := w.Body(ev)
	req := httptest.NewRequest(http.MethodPost, url, bytes.NewReader(body))
	req.Header.Set("Content-Type", ctype)
	w.Header(req.Header, policies.Delivery{Event: ev, N: 1, Body: body, URL: url, Secret: secret, SignedAt: time.Now()})
	return req
}

// When the engine is behind and the intake's queue is full, a delivery is
// answered 503 saying the proxy is momentarily full, with Retry-After;
// once the intake is closed, 503 says it takes no more.
func TestProxyFullIntakeSaysWhenToRetry(t *testing.T) {
	pol, err := policies.Lookup("stripe")
	if err != nil {
		t.Fatal(err)
	}
	secret := policies.GenerateSecret("stripe", 9)
	in := newIntake(pol, secret, 0, true, "", io.Discard) // nothing reads in.events: the engine is behind
	const url = "http://127.0.0.1:4242/webhooks/stripe"
	for i := range cap(in.events) {
		rec := httptest.NewRecorder()
		in.ServeHTTP(rec, signedRequest(t, "stripe", secret, url, i))
		if rec.Code != http.StatusOK {
			t.Fatalf("delivery %d answered %d %q before the queue was full", i, rec.Code, rec.Body)
		}
	}
	rec := httptest.NewRecorder()
	in.ServeHTTP(rec, signedRequest(t, "stripe", secret, url, cap(in.events)))
	if rec.Code != http.StatusServiceUnavailable || rec.Header().Get("Retry-After") != "1" || !strings.Contains(rec.Body.String(), "momentarily full") {
		t.Fatalf("a full intake answered %d, Retry-After %q, %q; want 503, Retry-After 1, saying it is momentarily full",
			rec.Code, rec.Header().Get("Retry-After"), rec.Body)
	}
	in.close()
	rec = httptest.NewRecorder()
	in.ServeHTTP(rec, signedRequest(t, "stripe", secret, url, cap(in.events)+1))
	if rec.Code != http.StatusServiceUnavailable || rec.Header().Get("Retry-After") != "" || !strings.Contains(rec.Body.String(), "not taking deliveries any more") {
		t.Fatalf("a closed intake answered %d, Retry-After %q, %q", rec.Code, rec.Header().Get("Retry-After"), rec.Body)
	}
}
