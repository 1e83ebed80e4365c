package policies

import (
	"net/http"
	"slices"
	"testing"
	"time"
)

// checkChangingHeaders checks a scheme's declared headers against what its
// wire writes: signing one delivery with another secret or at another time
// changes exactly Signed (and with the time only when there is a
// Timestamp), and writing it as a later attempt, or with another retry
// reason, changes exactly PerAttempt besides. Replay and the proxy replace
// these headers and keep every other one as it came, so one missing here
// would be sent stale.
func checkChangingHeaders(t *testing.T, w Wire, s Scheme) {
	t.Helper()
	t0 := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	ev := Event{Seq: 1, Seed: 7, ID: "evt_x", Type: w.DefaultEventType(), Created: t0}
	body, _ := w.Body(ev)
	sign := func(secret string, at time.Time, n int, reason string) http.Header {
		h := http.Header{}
		w.Header(h, Delivery{Event: ev, N: n, Body: body, URL: "http://127.0.0.1:9/hook", Secret: secret, SignedAt: at, RetryReason: reason})
		return h
	}
	base := sign("secret-a", t0, 1, "")
	bySecret := changed(base, sign("secret-b", t0, 1, ""))
	byTime := changed(base, sign("secret-a", t0.Add(1000*time.Second), 1, ""))
	if got := union(bySecret, byTime); !slices.Equal(got, s.Signed()) {
		t.Errorf("signing with another secret or at another time changes %q; the scheme names %q", got, s.Signed())
	}
	if timed := len(byTime) > 0; timed != (s.Timestamp != "") {
		t.Errorf("another signing time changes %q; the scheme's timestamp header is %q", byTime, s.Timestamp)
	}
	later := union(changed(base, sign("secret-a", t0, 2, "http_error")), changed(base, sign("secret-a", t0, 3, "http_timeout")))
	if got := union(later, s.Signed()); !slices.Equal(got, s.Resent()) {
		t.Errorf("a later attempt changes %q; the scheme names %q", later, s.Resent())
	}
}

// changed lists the headers whose values differ between a and b, sorted.
func changed(a, b http.Header) []string {
	var out []string
	for k := range a {
		if !slices.Equal(a[k], b[k]) {
			out = append(out, k)
		}
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}

func union(a, b []string) []string {
	out := slices.Concat(a, b)
	slices.Sort(out)
	return slices.Compact(out)
}
