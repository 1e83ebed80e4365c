package report_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/retrysim/retrysim/report"
)

func TestParseGates(t *testing.T) {
	got, err := report.ParseGates([]string{"forged-accepted,slow-responses", " Forged-Accepted"})
	if err != nil || len(got) != 2 || got[0] != report.GateForgedAccepted || got[1] != report.GateSlowResponses {
		t.Errorf("got %v, %v", got, err)
	}
	_, err = report.ParseGates([]string{"forged"})
	if !errors.Is(err, report.ErrUnknownGate) || !strings.Contains(err.Error(), `"forged" (valid: slow-responses, forged-accepted)`) {
		t.Errorf("unknown gate: %v", err)
	}
}

func TestCheckGates(t *testing.T) {
	fast := newRecStream("stripe", 30*time.Second).attempt(0, time.Millisecond)
	fast.effects["evt_a"] = 1
	fast.attack("bad-signature", "x1", 401)
	slow := newRecStream("slack", 3*time.Second).attempt(0, 4*time.Second)
	slow.effects["evt_a"] = 1
	slow.attack("bad-signature", "x1", 200)
	slow.effects["x1"] = 1
	bare := newRecStream("github", 10*time.Second)
	runs := []*report.Run{fast.run(t), slow.run(t), bare.run(t)}
	results := report.CheckGates(runs, []report.Gate{report.GateSlowResponses, report.GateForgedAccepted}, catalogueLike)
	want := []struct {
		status report.GateStatus
		msg    string
	}{
		{report.GatePass, "every answer came within stripe's 30s timeout"},
		{report.GatePass, "your handler turned away all 1 request"},
		{report.GateFail, "1 of 1 attempts that reached the handler waited past slack's 3s timeout"},
		{report.GateFail, "let 1 of 1 kinds of attack through (bad-signature)"},
		{report.GateUnknown, "no response time was measured"},
		{report.GateUnknown, "cannot be checked: no request your handler must reject was sent"},
	}
	if len(results) != len(want) {
		t.Fatalf("%d results, want %d", len(results), len(want))
	}
	for i, w := range want {
		g := results[i]
		if g.Status != w.status || !strings.Contains(g.Message, w.msg) {
			t.Errorf("%s on %s: %s %q, want %s with %q", g.Gate, g.Run.Policy, g.Status, g.Message, w.status, w.msg)
		}
	}
	if n := len(report.FailedGates(results)); n != 4 {
		t.Errorf("%d failed gates, want 4 (a gate that cannot be checked does not pass)", n)
	}
	if n := len(report.GatesFor(results, runs[1])); n != 2 {
		t.Errorf("%d gates for the slack run, want 2", n)
	}
}
