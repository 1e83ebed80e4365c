package simulator

import (
	"bytes"
	"context"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/retrysim/retrysim/policies"
	"github.com/retrysim/retrysim/policies/policytest"
	"github.com/retrysim/retrysim/simulator/capture"
)

// stripeSignedTime reads Stripe-Signature's t=.
func stripeSignedTime(h http.Header) (time.Time, error) {
	for part := range strings.SplitSeq(h.Get("Stripe-Signature"), ",") {
		if t, ok := strings.CutPrefix(part, "t="); ok {
			return unixSeconds(t)
		}
	}
	return time.Time{}, strconv.ErrSyntax
}

// signedTime reads the signed timestamp of a request, by provider; every
// wire format whose signature changes with the time must have one here.
var signedTime = map[string]func(h http.Header) (time.Time, error){
	"stripe":                stripeSignedTime,
	"stripe-thin":           stripeSignedTime,
	"slack":                 header(unixSeconds, "X-Slack-Request-Timestamp"),
	"standard-webhooks":     header(unixSeconds, "webhook-timestamp"),
	"standard-webhooks-v1a": header(unixSeconds, "webhook-timestamp"),
	"svix":                  header(unixSeconds, "svix-timestamp"),
	"zoom":                  header(unixSeconds, "x-zm-request-timestamp"),
	// discord (interactions) is not here: it never retries, and its probe
	// removes this test's always-failing endpoint first.
	"discord-events": header(unixSeconds, "X-Signature-Timestamp"),
	"paypal": header(func(s string) (time.Time, error) {
		return time.Parse(time.RFC3339, s)
	}, "PAYPAL-TRANSMISSION-TIME"),
}

func unixSeconds(s string) (time.Time, error) {
	n, err := strconv.ParseInt(s, 10, 64)
	return time.Unix(n, 0), err
}

func header(parse func(string) (time.Time, error), name string) func(http.Header) (time.Time, error) {
	return func(h http.Header) (time.Time, error) { return parse(h.Get(name)) }
}

// TestEveryAttemptIsSignedAfresh runs every built-in policy whose signature
// carries a timestamp against a handler that always fails, with the wall
// clock standing still (a whole schedule takes well under a second): each
// attempt of an event must still carry its own, later timestamp and so a
// different signature, as the provider's would, that verifies at the wall
// clock's time, over a byte-identical body.
func TestEveryAttemptIsSignedAfresh(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 700_000_000, time.UTC)
	tested := map[string]bool{}
	for _, name := range policies.Builtin() {
		pol := policytest.Lookup(t, name)
		wire := pol.Wire()
		scheme, _ := policies.SchemeOf(wire)
		sigs := scheme.Signed()
		if scheme.Timestamp == "" || pol.SignatureProbe != nil {
			// A probing policy (discord) removes this always-failing
			// endpoint first; it never retries anyway.
			continue
		}
		tested[wire.Name()] = true
		t.Run(name, func(t *testing.T) {
			readTime := signedTime[wire.Name()]
			if readTime == nil {
				t.Fatalf("wire %s signs a timestamp and the test cannot read it", wire.Name())
			}
			var log requestLog
			url := log.serve(t, func(w http.ResponseWriter, _ *http.Request) {
				w.WriteHeader(http.StatusInternalServerError)
			})
			secret := policies.GenerateSecret(pol.Provider, 11)
			wall := clockwork.NewFakeClockAt(now)
			if _, err := Run(context.Background(), Config{
				Policy: pol, URL: url + "/hook", Events: 2, Seed: 11, Secret: secret, WallClock: wall,
			}); err != nil {
				t.Fatal(err)
			}
			byEvent := map[string][]seenRequest{}
			for _, r := range log.requests() {
				id, err := wire.DedupID(r.header, r.body)
				if err != nil {
					t.Fatal(err)
				}
				byEvent[id] = append(byEvent[id], r)
			}
			if len(byEvent) != 2 {
				t.Fatalf("%d events reached the handler, want 2", len(byEvent))
			}
			for id, reqs := range byEvent {
				if len(reqs) != pol.MaxAttempts() {
					t.Errorf("event %s: %d attempts reached the handler, want the whole schedule of %d", id, len(reqs), pol.MaxAttempts())
				}
				var last time.Time
				seen := map[string]int{}
				for i, r := range reqs {
					if !bytes.Equal(r.body, reqs[0].body) {
						t.Errorf("event %s attempt %d: the body differs from the first attempt's", id, i+1)
					}
					if err := wire.Verify(r.header, r.body, url+"/hook", secret, now); err != nil {
						t.Errorf("event %s attempt %d: does not verify at the wall clock's time: %v", id, i+1, err)
					}
					at, err := readTime(r.header)
					if err != nil {
						t.Fatalf("event %s attempt %d: no signed timestamp: %v", id, i+1, err)
					}
					if lag := now.Sub(at); lag < 0 || lag > policies.MaxSigningLag {
						t.Errorf("event %s attempt %d: signed at %s, %s from the wall clock's %s; want within %s before it", id, i+1, at, lag, now, policies.MaxSigningLag)
					}
					if i > 0 && !at.After(last) {
						t.Errorf("event %s attempt %d: signed at %s, not after attempt %d's %s", id, i+1, at, i, last)
					}
					last = at
					var sig []string
					for _, k := range sigs {
						sig = append(sig, r.header.Values(k)...)
					}
					key := strings.Join(sig, "\n")
					if j, dup := seen[key]; dup {
						t.Errorf("event %s attempt %d: the same signature headers as attempt %d", id, i+1, j)
					}
					seen[key] = i + 1
				}
			}
		})
	}
	for w := range signedTime {
		if !tested[w] {
			t.Errorf("no built-in policy of %s signs a timestamp any more", w)
		}
	}
}

// TestReplaySignsEverySendAfresh replays a capture, re-signed, for every
// wire format that signs a timestamp: each send carries a later timestamp
// and a different signature than the one before, each verifies at the wall
// clock's time, and the body is the captured one.
func TestReplaySignsEverySendAfresh(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	captured := now.Add(-30 * 24 * time.Hour)
	for _, name := range policies.WireNames() {
		readTime := signedTime[name]
		if readTime == nil {
			continue
		}
		t.Run(name, func(t *testing.T) {
			w, _ := policies.WireFor(name)
			secret := policies.GenerateSecret(name, 5)
			ev := policies.Event{Seed: 5, Type: w.DefaultEventType(), Created: captured}
			w.NewEvent(&ev)
			body, ctype := w.Body(ev)
			h := http.Header{}
			h.Set("Content-Type", ctype)
			w.Header(h, policies.Delivery{Event: ev, N: 1, Body: body, URL: "http://127.0.0.1/in", Secret: secret, SignedAt: captured})
			var log requestLog
			url := log.serve(t, func(rw http.ResponseWriter, _ *http.Request) { rw.WriteHeader(http.StatusInternalServerError) })
			pol := policies.Policy{Name: name, Provider: name, Timeout: policies.Duration(10 * time.Second), Schedule: policies.ScheduleSpec{Delays: []policies.Duration{policies.Duration(time.Hour)}}}
			if err := pol.Init(); err != nil {
				t.Fatal(err)
			}
			const times = 5
			if _, err := Replay(context.Background(), ReplayConfig{
				Capture: capture.Request{Method: "POST", URL: url + "/in", Header: h, Body: body},
				Policy:  pol, URL: url + "/in", Times: times, Secret: secret, WallClock: clockwork.NewFakeClockAt(now),
			}); err != nil {
				t.Fatal(err)
			}
			sends := log.requests()
			if len(sends) != times {
				t.Fatalf("%d sends reached the handler, want %d", len(sends), times)
			}
			var last time.Time
			for i, r := range sends {
				if !bytes.Equal(r.body, body) {
					t.Errorf("send %d: the body is not the captured one", i+1)
				}
				if err := w.Verify(r.header, r.body, url+"/in", secret, now); err != nil {
					t.Errorf("send %d: does not verify at the wall clock's time: %v", i+1, err)
				}
				at, err := readTime(r.header)
				if err != nil {
					t.Fatalf("send %d: no signed timestamp: %v", i+1, err)
				}
				if i > 0 && !at.After(last) {
					t.Errorf("send %d: signed at %s, not after send %d's %s", i+1, at, i, last)
				}
				last = at
			}
		})
	}
}
