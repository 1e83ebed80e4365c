package redact

import (
	"strings"
	"testing"

	"github.com/retrysim/retrysim/simulator"
)

// TestRecordRedactorRemembersOnlyCleanText: a record whose text was seen
// before is passed on as it is, while a handler's text with a terminal
// escape is escaped every time it comes, and a secret added during a run
// is redacted from text found clean before it was known.
func TestRecordRedactorRemembersOnlyCleanText(t *testing.T) {
	sec := &Set{}
	d := NewRecords(sec)
	const secret = "whsec_added_during_the_run"
	clean := simulator.Record{Kind: simulator.KindAttempt, EventID: "evt_1", Error: "handler said " + secret}
	hostile := simulator.Record{Kind: simulator.KindAttempt, EventID: "evt_2", Error: "500 \x1b]0;pwned\x07"}
	for range 3 {
		if got := d.Redact(&clean); got != &clean {
			t.Fatalf("a clean record was copied: %+v", got)
		}
		got := d.Redact(&hostile)
		if got == &hostile || strings.ContainsAny(got.Error, "\x1b\x07") || got.Error != `500 \x1b]0;pwned\a` {
			t.Fatalf("the handler's escapes came through: %q", got.Error)
		}
		if hostile.Error != "500 \x1b]0;pwned\x07" {
			t.Fatal("the lent record was changed")
		}
	}
	sec.Add(secret)
	got := d.Redact(&clean)
	if got == &clean || strings.Contains(got.Error, secret) || !strings.Contains(got.Error, Marker) {
		t.Fatalf("a secret added during the run is not redacted from text seen before: %q", got.Error)
	}
	other := simulator.Record{Kind: simulator.KindAttempt, Fault: secret, AttemptFacts: simulator.AttemptFacts{Signal: "x " + secret}}
	got = d.Redact(&other)
	if strings.Contains(got.Fault, secret) || strings.Contains(got.Signal, secret) {
		t.Fatalf("a field other than the error keeps the secret: %+v", got)
	}
}

// TestRecordRedactorEscapesARefusedRedirect: where a handler's redirect
// led is the handler's text too (a saved stream can say anything), so its
// escapes are escaped even when there is no secret to look for: refused,
// or followed to where no connection could be made.
func TestRecordRedactorEscapesARefusedRedirect(t *testing.T) {
	d := NewRecords(nil)
	r := simulator.Record{Kind: simulator.KindAttempt, AttemptFacts: simulator.AttemptFacts{
		Outcome: simulator.Redirect, RedirectRefused: "http://192.0.2.1/\x1b]0;pwned\x07",
	}}
	got := d.Redact(&r)
	if strings.ContainsAny(got.RedirectRefused, "\x1b\x07") || got.RedirectRefused != `http://192.0.2.1/\x1b]0;pwned\a` {
		t.Fatalf("the handler's escapes came through: %q", got.RedirectRefused)
	}
	r = simulator.Record{Kind: simulator.KindAttempt, AttemptFacts: simulator.AttemptFacts{
		Outcome: simulator.ConnectionFailed, RedirectUnreached: "http://127.0.0.1:9/\x1b]0;pwned\x07",
	}}
	got = d.Redact(&r)
	if strings.ContainsAny(got.RedirectUnreached, "\x1b\x07") || got.RedirectUnreached != `http://127.0.0.1:9/\x1b]0;pwned\a` {
		t.Fatalf("the handler's escapes came through an unreached redirect: %q", got.RedirectUnreached)
	}
}
