package simulator

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/retrysim/retrysim/policies/policytest"
)

// TestStopSignals: an answer that says stop ends the event's retries.
func TestStopSignals(t *testing.T) {
	tests := []struct {
		policy string
		h      http.Handler
	}{
		{"slack", respond(500, "X-Slack-No-Retry", "1")},
		{"svix", respond(503, "webhook-delivery", "abort-message")},
	}
	for _, tc := range tests {
		t.Run(tc.policy, func(t *testing.T) {
			res, recs := runWith(t, policytest.Lookup(t, tc.policy), tc.h, 5, time.Hour, 8)
			if res.Attempts != 5 || fates(recs)[FateStopped] != 5 {
				t.Errorf("%d attempts, fates %v; want 5 attempts, 5 stopped", res.Attempts, fates(recs))
			}
			if a := attempts(recs); a[0].Signal == "" {
				t.Error("the attempt record does not say why retries stopped")
			}
		})
	}
	// Without the header the same failures are retried to the end.
	res, _ := runWith(t, policytest.Lookup(t, "slack"), respond(500), 5, time.Hour, 8)
	if res.Attempts != 20 {
		t.Errorf("slack without X-Slack-No-Retry: %d attempts, want 20", res.Attempts)
	}
}

// TestGoneDisablesEndpoint: a Standard Webhooks 410 disables the endpoint
// at once, and nothing is sent after it, at any concurrency.
func TestGoneDisablesEndpoint(t *testing.T) {
	var mu sync.Mutex
	n := 0
	h := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		mu.Lock()
		n++
		k := n
		mu.Unlock()
		if k == 4 {
			w.WriteHeader(http.StatusGone)
			return
		}
		w.WriteHeader(500)
	})
	res, recs := runWith(t, policytest.Lookup(t, "standard-webhooks"), h, 10, time.Minute, 32)
	if res.DisabledAt.IsZero() || res.Attempts != 4 {
		t.Fatalf("disabled at %v after %d attempts; want disabled by the 4th", res.DisabledAt, res.Attempts)
	}
	for _, a := range attempts(recs) {
		if a.Time.After(res.DisabledAt) {
			t.Errorf("attempt at %s sent after the endpoint was disabled at %s", a.Time, res.DisabledAt)
		}
	}
	end := recs[len(recs)-1]
	if end.DisabledBy == "" {
		t.Error("the end record does not say what disabled the endpoint")
	}
	if fates(recs)[FateDisabled] != 10 {
		t.Errorf("fates %v, want 10 disabled", fates(recs))
	}
}

// TestRetryAfterLengthensDelay: a honoured Retry-After pushes the next
// attempt out; a short one does not pull it in.
func TestRetryAfterLengthensDelay(t *testing.T) {
	pol := policytest.Lookup(t, "standard-webhooks")
	for _, tc := range []struct {
		value string
		want  time.Duration
	}{{"7200", 2 * time.Hour}, {"1", 5 * time.Second}} {
		_, recs := runWith(t, pol, respond(429, "Retry-After", tc.value), 1, time.Minute, 1)
		a := attempts(recs)
		if len(a) < 2 {
			t.Fatalf("Retry-After %s: %d attempts", tc.value, len(a))
		}
		if gap := a[1].Time.Sub(a[0].Time); gap != tc.want {
			t.Errorf("Retry-After %s: second attempt %s after the first, want %s", tc.value, gap, tc.want)
		}
	}
	// A policy that does not honour it keeps its schedule.
	_, recs := runWith(t, policytest.Lookup(t, "svix"), respond(429, "Retry-After", "7200"), 1, time.Minute, 1)
	if a := attempts(recs); a[1].Time.Sub(a[0].Time) != 5*time.Second {
		t.Errorf("svix honoured Retry-After: gap %s", a[1].Time.Sub(a[0].Time))
	}
}

// TestSuccessCodes: Zoom counts only 200 and 204.
func TestSuccessCodes(t *testing.T) {
	res, recs := runWith(t, policytest.Lookup(t, "zoom"), respond(201), 2, time.Minute, 4)
	if res.Delivered != 0 || attempts(recs)[0].Outcome != HTTPError {
		t.Errorf("zoom with 201: delivered %d, outcome %s", res.Delivered, attempts(recs)[0].Outcome)
	}
	res, _ = runWith(t, policytest.Lookup(t, "zoom"), respond(204), 2, time.Minute, 4)
	if res.Delivered != 2 {
		t.Errorf("zoom with 204: delivered %d of 2", res.Delivered)
	}
}

// TestTwilioRetryPolicy: Twilio's documented default retries only connect
// failures; the URL fragment's rp=all retries a 500 too, and the fragment
// is neither sent nor signed.
func TestTwilioRetryPolicy(t *testing.T) {
	pol := policytest.Lookup(t, "twilio-docs")
	res, _ := runWith(t, pol, respond(500), 3, time.Minute, 4)
	if res.Attempts != 3 {
		t.Errorf("rp=ct with 500s: %d attempts, want 3 (no retries)", res.Attempts)
	}
	var mu sync.Mutex
	var bad []string
	wire := pol.Wire()
	srv := newLoopback(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body := make([]byte, r.ContentLength)
		r.Body.Read(body)
		self := "http://" + r.Host + r.URL.RequestURI()
		if err := wire.Verify(r.Header, body, self, "s", time.Now()); err != nil {
			mu.Lock()
			bad = append(bad, err.Error())
			mu.Unlock()
		}
		w.WriteHeader(500)
	}))
	var recs []Record
	res, err := Run(context.Background(), Config{
		Policy: pol, URL: srv + "/sms#rc=3&rp=all&tt=5000", Events: 3, Seed: 3, Secret: "s",
		Sink: func(r *Record) error { recs = append(recs, *r); return nil },
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.Attempts != 12 {
		t.Errorf("rc=3 rp=all with 500s: %d attempts, want 12", res.Attempts)
	}
	if recs[0].Timeout != 5*time.Second {
		t.Errorf("tt=5000: run record timeout %s", recs[0].Timeout)
	}
	if len(bad) > 0 {
		t.Errorf("signature over the URL without the fragment failed: %v", bad)
	}
	if _, err := Run(context.Background(), Config{Policy: pol, URL: srv + "/sms#rc=9", Events: 1, Secret: "s"}); err == nil {
		t.Error("rc=9 in the fragment was accepted")
	}
}

// TestEventTypeChecked: an event type the wire cannot send is a config
// error; the policy's own default type is used.
func TestEventTypeChecked(t *testing.T) {
	_, err := Run(context.Background(), Config{Policy: policytest.Lookup(t, "stripe"), DryRun: true, EventType: "push"})
	if err == nil {
		t.Fatal("stripe accepted event type push")
	}
	var seen string
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body := make([]byte, r.ContentLength)
		r.Body.Read(body)
		seen = string(body)
		w.WriteHeader(204)
	})
	runWith(t, policytest.Lookup(t, "discord-events"), h, 1, time.Minute, 1)
	if want := `"type":"ENTITLEMENT_CREATE"`; !strings.Contains(seen, want) {
		t.Errorf("discord-events sent %s, want an entitlement event", seen)
	}
}
