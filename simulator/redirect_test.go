package simulator

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/retrysim/retrysim/policies"
	"github.com/retrysim/retrysim/policies/policytest"
	"github.com/retrysim/retrysim/scenarios/scenariotest"
)

// slackPolicy is the built-in Slack policy: it follows up to two redirects.
func slackPolicy(t *testing.T) policies.Policy {
	t.Helper()
	p := policytest.Lookup(t, "slack")
	if p.FollowRedirects != 2 {
		t.Fatalf("slack follows %d redirects; these tests assume 2", p.FollowRedirects)
	}
	return p
}

// TestFollowedRedirectKeepsThePost sends Slack events to an endpoint that
// has moved: the request the handler finally gets must be the provider's
// POST, with the same body and a signature that verifies, whatever the
// redirect status (Go's client would turn a 301, 302 or 303 into a bodyless
// GET).
func TestFollowedRedirectKeepsThePost(t *testing.T) {
	wall := clockwork.NewFakeClockAt(time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC))
	const secret = "slack-redirect-secret"
	cases := []struct {
		name  string
		hops  []int // the statuses of the redirects in turn
		final string
	}{
		{name: "301", hops: []int{301}},
		{name: "302", hops: []int{302}},
		{name: "303", hops: []int{303}},
		{name: "307", hops: []int{307}},
		{name: "308", hops: []int{308}},
		{name: "301 then 302", hops: []int{301, 302}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var log requestLog
			url := log.serve(t, func(w http.ResponseWriter, r *http.Request) {
				var hop int
				if _, err := fmt.Sscanf(r.URL.Path, "/hop%d", &hop); err != nil {
					hop = 0
				}
				if r.URL.Path == "/final" {
					w.WriteHeader(http.StatusOK)
					return
				}
				next := "/final"
				if hop+1 < len(tc.hops) {
					next = fmt.Sprintf("hop%d", hop+1) // relative: resolved against the request URL
				}
				w.Header().Set("Location", next)
				w.WriteHeader(tc.hops[hop])
			})
			var recs []Record
			pol := slackPolicy(t)
			res, err := Run(context.Background(), Config{
				Policy: pol, URL: url + "/hop0", Events: 2, Secret: secret, WallClock: wall,
				Sink: func(r *Record) error { recs = append(recs, *r); return nil },
			})
			if err != nil {
				t.Fatal(err)
			}
			if res.Delivered != 2 {
				t.Errorf("delivered %d of 2 events", res.Delivered)
			}
			seen := log.requests()
			if want := 2 * (len(tc.hops) + 1); len(seen) != want {
				t.Fatalf("the server saw %d requests, want %d (each event: the original and %d redirect(s))", len(seen), want, len(tc.hops))
			}
			wire := pol.Wire()
			// Each event's requests, in the order the server saw them: two
			// events' requests may interleave when they are sent together.
			var order []string
			byEvent := map[string][]int{}
			for i, r := range seen {
				id, _ := wire.DedupID(r.header, r.body)
				if _, ok := byEvent[id]; !ok {
					order = append(order, id)
				}
				byEvent[id] = append(byEvent[id], i)
			}
			if len(order) != 2 {
				t.Fatalf("the server saw %d events' requests, want 2", len(order))
			}
			finals := 0
			for _, id := range order {
				if n := len(byEvent[id]); n != len(tc.hops)+1 {
					t.Errorf("event %s: %d requests, want the original and %d redirect(s)", id, n, len(tc.hops))
				}
				first := seen[byEvent[id][0]]
				for _, i := range byEvent[id] {
					r := seen[i]
					if r.method != http.MethodPost {
						t.Errorf("request %d (%s) was a %s, want the provider's POST", i+1, r.path, r.method)
					}
					if !bytes.Equal(r.body, first.body) {
						t.Errorf("request %d (%s) carried %d bytes, want the same %d bytes as the original", i+1, r.path, len(r.body), len(first.body))
					}
					if err := wire.Verify(r.header, r.body, "", secret, wall.Now()); err != nil {
						t.Errorf("request %d (%s): signature does not verify: %v", i+1, r.path, err)
					}
					if r.path == "/final" {
						finals++
					}
				}
			}
			if finals != 2 {
				t.Errorf("%d requests reached /final, want 2", finals)
			}
			for _, r := range recs {
				if r.Kind == KindAttempt && (r.Outcome != Delivered || r.Status != 200) {
					t.Errorf("attempt %d of %s: %s %d (%s), want delivered 200", r.Attempt, r.EventID, r.Outcome, r.Status, r.Error)
				}
			}
		})
	}
}

// TestRedirectLoopEndsAsTooManyRedirects points Slack at an endpoint that
// redirects to itself: each attempt sends the original and two follows, all
// POSTs, and then fails as a redirect; the next attempt says
// too_many_redirects.
func TestRedirectLoopEndsAsTooManyRedirects(t *testing.T) {
	for _, status := range []int{301, 302, 303, 307, 308} {
		t.Run(fmt.Sprint(status), func(t *testing.T) {
			var log requestLog
			url := log.serve(t, func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Location", r.URL.Path)
				w.WriteHeader(status)
			})
			pol := slackPolicy(t)
			var recs []Record
			res, err := Run(context.Background(), Config{
				Policy: pol, URL: url + "/loop", Events: 1, Secret: "loop-secret",
				Sink: func(r *Record) error { recs = append(recs, *r); return nil },
			})
			if err != nil {
				t.Fatal(err)
			}
			if res.Delivered != 0 {
				t.Errorf("delivered %d events through a redirect loop", res.Delivered)
			}
			attempts := pol.MaxAttempts()
			if res.Attempts != attempts {
				t.Errorf("%d attempts, want the whole schedule of %d", res.Attempts, attempts)
			}
			seen := log.requests()
			if want := attempts * (pol.FollowRedirects + 1); len(seen) != want {
				t.Errorf("the server saw %d requests, want %d (%d attempts × the original and %d follows)", len(seen), want, attempts, pol.FollowRedirects)
			}
			for i, r := range seen {
				if r.method != http.MethodPost || len(r.body) == 0 {
					t.Errorf("request %d was a %s with %d bytes, want a POST with the payload", i+1, r.method, len(r.body))
				}
			}
			for _, r := range recs {
				if r.Kind != KindAttempt {
					continue
				}
				if r.Outcome != Redirect || r.Status != status {
					t.Errorf("attempt %d: %s %d, want redirect %d", r.Attempt, r.Outcome, r.Status, status)
				}
				if !strings.Contains(r.Error, "redirect") {
					t.Errorf("attempt %d: error %q does not say the redirects ran out", r.Attempt, r.Error)
				}
			}
			for i, r := range seen {
				attempt := i/(pol.FollowRedirects+1) + 1
				want := ""
				if attempt > 1 {
					want = "too_many_redirects"
				}
				if got := r.header.Get("X-Slack-Retry-Reason"); got != want {
					t.Errorf("request %d (attempt %d): X-Slack-Retry-Reason %q, want %q", i+1, attempt, got, want)
				}
			}
		})
	}
}

// TestRedirectThatCannotBeFollowed: a 301 to an answer that is a 3xx with
// nowhere to go (a 304) ends the attempt as a redirect, and the record says
// why in words, not that there were too many.
func TestRedirectThatCannotBeFollowed(t *testing.T) {
	var log requestLog
	url := log.serve(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/old" {
			w.Header().Set("Location", "/new")
			w.WriteHeader(http.StatusMovedPermanently)
			return
		}
		w.WriteHeader(http.StatusNotModified)
	})
	var recs []Record
	if _, err := Run(context.Background(), Config{
		Policy: slackPolicy(t), URL: url + "/old", Events: 1, Secret: "redirect-secret", Sink: Collect(&recs),
	}); err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		if r.Kind != KindAttempt {
			continue
		}
		if r.Outcome != Redirect || !strings.Contains(r.Error, "cannot follow") || strings.Contains(r.Error, "too many") {
			t.Errorf("attempt %d: %s %q, want a redirect that says it cannot be followed", r.Attempt, r.Outcome, r.Error)
		}
	}
}

// TestRedirectOffThisMachineIsRefused points Slack, which follows
// redirects, at a handler that redirects to another machine: nothing is
// sent there, and the attempt ends on the handler's answer, a redirect,
// with where it led, not as a connection that broke after the request was
// sent. A name is refused without being looked up, a password in the
// Location is masked, and a hop on this machine before it is followed.
func TestRedirectOffThisMachineIsRefused(t *testing.T) {
	cases := []struct {
		name     string
		location string // where /old redirects
		final    string // where the last redirect went (a "/" path is this server's)
		status   int
		hops     int // the requests the server sees per attempt
		refused  string
	}{
		{name: "an address", location: "http://192.0.2.1/elsewhere", status: 307, hops: 1, refused: "http://192.0.2.1/elsewhere"},
		{name: "any address", location: "http://0.0.0.0:18081/webhooks/slack", status: 308, hops: 1, refused: "http://0.0.0.0:18081/webhooks/slack"},
		{name: "a name", location: "https://hooks.example/slack", status: 301, hops: 1, refused: "https://hooks.example/slack"},
		{name: "a password", location: "http://user:hunter2@192.0.2.1/in", status: 302, hops: 1, refused: "http://user:xxxxx@192.0.2.1/in"},
		{name: "after a hop here", location: "/moved", final: "http://192.0.2.1/gone", status: 303, hops: 2, refused: "http://192.0.2.1/gone"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var log requestLog
			url := log.serve(t, func(w http.ResponseWriter, r *http.Request) {
				to := tc.location
				if r.URL.Path == "/moved" {
					to = tc.final
				}
				w.Header().Set("Location", to)
				w.WriteHeader(tc.status)
			})
			pol := slackPolicy(t)
			recs, res := collect(t, Config{Policy: pol, URL: url + "/old", Events: 1})
			if res.Delivered != 0 {
				t.Errorf("delivered %d events through a redirect off this machine", res.Delivered)
			}
			atts := attempts(recs)
			if len(atts) != pol.MaxAttempts() {
				t.Fatalf("%d attempts, want the whole schedule of %d", len(atts), pol.MaxAttempts())
			}
			if seen := log.requests(); len(seen) != tc.hops*len(atts) {
				t.Errorf("the server saw %d requests, want %d per attempt", len(seen), tc.hops)
			}
			for _, a := range atts {
				if a.Outcome != Redirect || a.Status != tc.status || a.HandlerStatus != tc.status || !a.Reached {
					t.Errorf("attempt %d: %s, status %d, handler %d, reached %v; want redirect %d answered by the handler",
						a.Attempt, a.Outcome, a.Status, a.HandlerStatus, a.Reached, tc.status)
				}
				if a.RedirectRefused != tc.refused {
					t.Errorf("attempt %d: redirect_refused %q, want %q", a.Attempt, a.RedirectRefused, tc.refused)
				}
				if !strings.Contains(a.Error, tc.refused) || !strings.Contains(a.Error, "not a loopback address") || strings.Contains(a.Error, "hunter2") {
					t.Errorf("attempt %d: error %q does not name the refused redirect (password masked) and why", a.Attempt, a.Error)
				}
			}
			// Slack would have followed the redirect, and what it met
			// there is not known: a retry says unknown_error, not
			// too_many_redirects, which is Slack's word for more than two.
			for i, r := range log.requests() {
				want := ""
				if attempt := i/tc.hops + 1; attempt > 1 {
					want = "unknown_error"
				}
				if got := r.header.Get("X-Slack-Retry-Reason"); got != want {
					t.Errorf("request %d: X-Slack-Retry-Reason %q, want %q", i+1, got, want)
				}
			}
		})
	}
}

// TestRedirectOffThisMachineLostOnTheWayBack: an answer lost on the way
// back never reached the provider, which followed nothing, so the record
// names no refused redirect.
func TestRedirectOffThisMachineLostOnTheWayBack(t *testing.T) {
	var log requestLog
	url := log.serve(t, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://192.0.2.1/elsewhere", http.StatusTemporaryRedirect)
	})
	recs, _ := collect(t, Config{Policy: slackPolicy(t), Scenario: scenariotest.Faults(t, "faults: [{type: lost-response}]\n"), URL: url, Events: 1})
	for _, a := range attempts(recs) {
		if a.Outcome != LostResponse || a.RedirectRefused != "" {
			t.Errorf("attempt %d: %s, redirect_refused %q; want lost_response and none", a.Attempt, a.Outcome, a.RedirectRefused)
		}
	}
}

// TestFollowedRedirectToNothingListening points Slack at a handler that
// redirects to a port on this machine where nothing listens, with remote
// targets allowed or not: the handler was reached, the redirect was
// followed, and no connection could be made where it led, so the attempt
// is connection_failed with redirect_unreached naming where (a password
// masked): the request never got there. The retry says connection_failed,
// as Slack's would. A connection that broke after the request was sent
// there is no unreached redirect.
func TestFollowedRedirectToNothingListening(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := l.Addr().String()
	l.Close()
	// broken reads each request and closes the connection unanswered.
	broken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { broken.Close() })
	go func() {
		for {
			c, err := broken.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				http.ReadRequest(bufio.NewReader(c))
			}()
		}
	}()
	cases := []struct {
		name, location, unreached string
	}{
		{"nothing listens", "http://" + dead + "/x", "http://" + dead + "/x"},
		{"a password", "http://user:hunter2@" + dead + "/x", "http://user:xxxxx@" + dead + "/x"},
		{"the connection broke", "http://" + broken.Addr().String() + "/x", ""},
	}
	for _, tc := range cases {
		for _, remote := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s, allow remote %v", tc.name, remote), func(t *testing.T) {
				var log requestLog
				url := log.serve(t, func(w http.ResponseWriter, r *http.Request) {
					w.Header().Set("Location", tc.location)
					w.WriteHeader(http.StatusTemporaryRedirect)
				})
				pol := slackPolicy(t)
				recs, _ := collect(t, Config{Policy: pol, URL: url + "/old", Events: 1, AllowRemote: remote})
				atts := attempts(recs)
				if len(atts) != pol.MaxAttempts() {
					t.Fatalf("%d attempts, want the whole schedule of %d", len(atts), pol.MaxAttempts())
				}
				for _, a := range atts {
					if a.Outcome != ConnectionFailed || !a.Reached || a.RedirectUnreached != tc.unreached || a.RedirectRefused != "" {
						t.Errorf("attempt %d: %s, reached %v, redirect_unreached %q, redirect_refused %q; want connection_failed, reached, %q and none refused",
							a.Attempt, a.Outcome, a.Reached, a.RedirectUnreached, a.RedirectRefused, tc.unreached)
					}
					if tc.unreached != "" && (!strings.Contains(a.Error, "the redirect to "+tc.unreached+", followed: ") || strings.Contains(a.Error, "hunter2")) {
						t.Errorf("attempt %d: error %q does not name where the followed redirect led (password masked)", a.Attempt, a.Error)
					}
				}
				for i, r := range log.requests() {
					want := "connection_failed"
					if i == 0 {
						want = ""
					}
					if got := r.header.Get("X-Slack-Retry-Reason"); got != want {
						t.Errorf("request %d: X-Slack-Retry-Reason %q, want %q", i+1, got, want)
					}
				}
			})
		}
	}
}
