package proxy

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/retrysim/retrysim/policies"
	"github.com/retrysim/retrysim/policies/policytest"
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
	pol := policytest.Lookup(t, "stripe")
	secret := policies.GenerateSecret("stripe", 9)
	in := NewIntake(pol, secret, io.Discard, WithAck()) // nothing reads in.events: the engine is behind
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
	in.Close()
	rec = httptest.NewRecorder()
	in.ServeHTTP(rec, signedRequest(t, "stripe", secret, url, cap(in.events)+1))
	if rec.Code != http.StatusServiceUnavailable || rec.Header().Get("Retry-After") != "" || !strings.Contains(rec.Body.String(), "not taking deliveries any more") {
		t.Fatalf("a closed intake answered %d, Retry-After %q, %q", rec.Code, rec.Header().Get("Retry-After"), rec.Body)
	}
}

// A delivery signed with another secret is answered 400, never handed to
// the engine, and counted as forged in the summary.
func TestIntakeRefusesAForgedDelivery(t *testing.T) {
	pol := policytest.Lookup(t, "stripe")
	var log bytes.Buffer
	in := NewIntake(pol, policies.GenerateSecret("stripe", 9), &log, WithAck())
	rec := httptest.NewRecorder()
	in.ServeHTTP(rec, signedRequest(t, "stripe", policies.GenerateSecret("stripe", 10), "http://127.0.0.1:4242/hook", 0))
	if rec.Code != http.StatusBadRequest || len(in.Events()) != 0 {
		t.Fatalf("a forged delivery answered %d with %d queued; want 400 and none", rec.Code, len(in.Events()))
	}
	if got := in.Summary(); !strings.Contains(got, "0 deliveries taken in; refused 1 forged") || !strings.Contains(log.String(), "refused a delivery (forged)") {
		t.Fatalf("summary %q, log %q", got, log.String())
	}
}

// A body over MaxBody is answered 413, and the summary names the statuses
// the refusals were answered with: not 400 alone when one was a 413.
func TestIntakeSummaryNamesTheStatusesRefusalsGot(t *testing.T) {
	pol := policytest.Lookup(t, "stripe")
	secret := policies.GenerateSecret("stripe", 9)
	in := NewIntake(pol, secret, io.Discard, WithAck())
	const url = "http://127.0.0.1:4242/webhooks/stripe"
	rec := httptest.NewRecorder()
	in.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, url, bytes.NewReader(make([]byte, MaxBody+1))))
	if rec.Code != http.StatusRequestEntityTooLarge {
		t.Fatalf("a body over %d bytes answered %d, want 413", MaxBody, rec.Code)
	}
	if got, want := in.Summary(), "0 deliveries taken in; refused 1 unreadable (answered 413, never forwarded)"; !strings.HasSuffix(got, want) {
		t.Fatalf("summary %q, want it to end %q", got, want)
	}
	rec = httptest.NewRecorder()
	in.ServeHTTP(rec, signedRequest(t, "stripe", policies.GenerateSecret("stripe", 10), url, 0))
	if rec.Code != http.StatusBadRequest {
		t.Fatalf("a forged delivery answered %d, want 400", rec.Code)
	}
	if got, want := in.Summary(), "0 deliveries taken in; refused 1 forged, 1 unreadable (answered 400 or 413, never forwarded)"; !strings.HasSuffix(got, want) {
		t.Fatalf("summary %q, want it to end %q", got, want)
	}
}
