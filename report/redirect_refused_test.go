package report_test

import (
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/retrysim/retrysim/policies/policytest"
	"github.com/retrysim/retrysim/report"
	"github.com/retrysim/retrysim/report/advice"
	"github.com/retrysim/retrysim/scenarios/scenariotest"
	"github.com/retrysim/retrysim/simulator"
)

// A handler that redirects every delivery off this machine, for a provider
// that follows redirects: retrysim refuses to follow, and the report says
// so, naming where the redirect led and the setting that allows it. It
// does not blame the connection, which did not break (the handler
// answered), nor tell the user to read the handler's log.
func TestRefusedRedirectIsExplained(t *testing.T) {
	const away = "http://192.0.2.1/webhooks/slack"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, away, http.StatusTemporaryRedirect)
	}))
	defer srv.Close()
	slack := policytest.Lookup(t, "slack")
	if slack.FollowRedirects == 0 {
		t.Fatal("slack follows no redirect; this test needs a provider that does")
	}
	agg := report.NewAggregator(report.WithTimeline(-1))
	defer agg.Close()
	if _, err := simulator.Run(t.Context(), simulator.Config{Policy: slack, URL: srv.URL, Events: 3, Sink: agg.Add}); err != nil {
		t.Fatal(err)
	}
	runs := agg.Runs()
	r := runs[0]
	attempts := 3 * slack.MaxAttempts()
	if r.Outcomes[simulator.ConnectionFailed] != 0 || r.Outcomes[simulator.Redirect] != attempts || r.RedirectsRefused != attempts || r.RedirectRefusedTo != away {
		t.Errorf("outcomes %v, %d redirects refused, to %q; want every one of %d attempts a redirect refused, to %s",
			r.Outcomes, r.RedirectsRefused, r.RedirectRefusedTo, attempts, away)
	}

	text, md, _ := renderAll(t, &report.Report{Runs: runs, Timeline: 3, Width: -1, Spelling: advice.Flag})
	for format, out := range map[string]string{"text": text, "markdown": md} {
		esc := func(s string) string { return s }
		if format == "markdown" {
			esc = mdEscape
		}
		for _, want := range []string{
			"9× your handler redirected to " + away + ", which retrysim refused to reach (redirect)",
			"your handler answered all 12 deliveries with a redirect to " + away + ", which slack would follow but retrysim refused to reach: it is not a loopback address",
			"pass --allow-remote to let retrysim follow it",
			"redirect 12",
		} {
			if !strings.Contains(out, esc(want)) {
				t.Errorf("%s: the report does not say %q:\n%s", format, want, out)
			}
		}
		for _, wrong := range []string{"connection broke", "connection_failed", "fails on every request", "does not follow it"} {
			if strings.Contains(out, wrong) {
				t.Errorf("%s: the report says %q of a handler that answered with a redirect:\n%s", format, wrong, out)
			}
		}
	}

	g := report.CheckGates(runs, []report.Gate{report.GateRedirects}, report.GateOptions{Spelling: advice.Flag})[0]
	if g.Status != report.GateUnchecked || g.Reason != report.GateRedirectRefused ||
		!strings.Contains(g.Message, away) || !strings.Contains(g.Message, "--allow-remote") {
		t.Errorf("redirects gate: %s (%s) %q; want unknown, redirect_refused, naming %s and --allow-remote", g.Status, g.Reason, g.Message, away)
	}
}

// The redirects gate still fails on a redirect the provider does not
// follow, counting only those, beside one retrysim refused to follow.
func TestRedirectsGateCountsOnlyUnfollowedRedirects(t *testing.T) {
	s := newRecStream(2)
	s.attempt(0, 1, 0, simulator.Redirect, 308, true, ms).fate(0, simulator.FateExhausted)
	s.attempt(1, 1, 0, simulator.Redirect, 307, true, ms)
	s.recs[len(s.recs)-1].RedirectRefused = "http://192.0.2.1/hook"
	s.fate(1, simulator.FateExhausted)
	runs, err := report.Summarize(s.end(nil, false))
	if err != nil {
		t.Fatal(err)
	}
	g := report.CheckGates(runs, []report.Gate{report.GateRedirects}, report.GateOptions{})[0]
	if g.Status != report.GateFail || g.Reason != report.GateRedirected || !strings.HasPrefix(g.Message, "1 attempt failed") {
		t.Errorf("redirects gate: %s (%s) %q; want fail, redirected, on 1 attempt", g.Status, g.Reason, g.Message)
	}
	if r := runs[0]; r.HandlerRedirects != 1 || r.RedirectsRefused != 1 {
		t.Errorf("%d redirects not followed, %d refused; want 1 and 1", r.HandlerRedirects, r.RedirectsRefused)
	}
}

// A refused redirect among injected faults: an answer the scenario lost
// on the way back was a redirect the provider never saw, so nothing says
// the provider does not follow redirects (slack does); and the resends
// after refused redirects are the handler's doing, so the report does not
// say every resend was injected.
func TestRefusedRedirectAmongInjectedFaults(t *testing.T) {
	const away = "http://192.0.2.1/webhooks/slack"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, away, http.StatusTemporaryRedirect)
	}))
	defer srv.Close()
	agg := report.NewAggregator(report.WithTimeline(-1))
	defer agg.Close()
	cfg := simulator.Config{Policy: policytest.Lookup(t, "slack"), Scenario: scenariotest.Lookup(t, "flaky-network"), URL: srv.URL, Events: 20, Sink: agg.Add}
	if _, err := simulator.Run(t.Context(), cfg); err != nil {
		t.Fatal(err)
	}
	runs := agg.Runs()
	r := runs[0]
	if r.Outcomes[simulator.LostResponse] == 0 || r.RefusedRedirectArrivals == 0 {
		t.Fatalf("outcomes %v, %d arrivals after a refused redirect: the seed gives no lost answer beside a refused redirect", r.Outcomes, r.RefusedRedirectArrivals)
	}
	if r.HandlerRedirects != 0 {
		t.Errorf("%d redirects the provider did not follow, want 0: slack follows them, and a lost answer was never seen", r.HandlerRedirects)
	}
	text, _, _ := renderAll(t, &report.Report{Runs: runs, Width: -1, Spelling: advice.Flag})
	for _, wrong := range []string{"does not follow it", "all injected by"} {
		if strings.Contains(text, wrong) {
			t.Errorf("the report says %q:\n%s", wrong, text)
		}
	}
	if !strings.Contains(text, "partly injected by flaky-network") {
		t.Errorf("the report does not say the resends were partly injected:\n%s", text)
	}
}

// A handler that redirects every delivery to a port on this machine where
// nothing listens, for a provider that follows redirects: the connection
// there was refused, so the request never got there, and the report says
// so rather than that a connection broke after the request was sent. With
// remote targets allowed or not: the address is loopback either way.
func TestFollowedRedirectToNothingIsExplained(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := "http://" + l.Addr().String() + "/webhooks/slack"
	l.Close()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, dead, http.StatusTemporaryRedirect)
	}))
	defer srv.Close()
	slack := policytest.Lookup(t, "slack")
	for _, remote := range []bool{false, true} {
		t.Run(fmt.Sprintf("allow remote %v", remote), func(t *testing.T) {
			agg := report.NewAggregator(report.WithTimeline(-1))
			defer agg.Close()
			if _, err := simulator.Run(t.Context(), simulator.Config{Policy: slack, URL: srv.URL, Events: 3, AllowRemote: remote, Sink: agg.Add}); err != nil {
				t.Fatal(err)
			}
			runs := agg.Runs()
			r := runs[0]
			attempts := 3 * slack.MaxAttempts()
			if r.Outcomes[simulator.ConnectionFailed] != attempts || r.RedirectsUnreached != attempts || r.RedirectUnreachedTo != dead || r.UnreachedRedirectArrivals != attempts-3 || r.Causes[simulator.ConnectionFailed] != 0 {
				t.Errorf("outcomes %v, redirects unreached to %q, %d arrivals after them, causes %v; want every one of %d attempts connection_failed at %s, %d arrivals after them and none among the causes",
					r.Outcomes, r.RedirectUnreachedTo, r.UnreachedRedirectArrivals, r.Causes, attempts, dead, attempts-3)
			}
			text, md, _ := renderAll(t, &report.Report{Runs: runs, Width: -1})
			cause := "9× your handler redirected to " + dead + ", which did not accept the connection: the request was never sent there (connection_failed)"
			change := "your handler answered all 12 deliveries with a redirect to " + dead + ", which slack followed, and no connection could be made there, so those deliveries failed: answer at the URL you gave, or serve where the redirect leads"
			for format, out := range map[string]string{"text": text, "markdown": unwrap(md)} {
				for _, want := range []string{cause, change} {
					if format == "markdown" {
						want = mdEscape(want)
					}
					if !strings.Contains(out, want) {
						t.Errorf("%s: the report does not say %q:\n%s", format, want, out)
					}
				}
				// The handler answered every delivery, with a redirect: it
				// neither failed on every request nor had a connection
				// break after a request was sent.
				if strings.Contains(out, "connection broke") || strings.Contains(out, "accepted none") {
					t.Errorf("%s: the report blames a broken connection or a failing handler:\n%s", format, out)
				}
			}
			// The redirects gate is about redirects slack does not follow:
			// it passes, and does not say that no delivery failed on one.
			g := report.CheckGates(runs, []report.Gate{report.GateRedirects}, report.GateOptions{})[0]
			want := "no delivery failed on a redirect that slack does not follow; 12 attempts followed one to " + dead + ", where no connection could be made"
			if g.Status != report.GatePass || g.Message != want {
				t.Errorf("redirects gate %s: %q, want pass: %q", g.Status, g.Message, want)
			}
		})
	}
}
