package report_test

import (
	"strings"
	"testing"
	"time"

	"github.com/retrysim/retrysim/report"
)

// TestForgedAndSlowGates: forged-accepted follows the signature check, and
// slow-responses says the headroom and the other providers the handler is
// too slow for.
func TestForgedAndSlowGates(t *testing.T) {
	fast := newSigStream("stripe", 30*time.Second).attempt(0, time.Millisecond).attempt(1, 4*time.Second)
	fast.effects["evt_a"], fast.effects["evt_b"] = 1, 1
	fast.attack("bad-signature", "x1", 401)
	slow := newSigStream("slack", 3*time.Second).attempt(0, 4*time.Second)
	slow.effects["evt_a"] = 1
	slow.attack("bad-signature", "x1", 200)
	slow.effects["x1"] = 1
	bare := newSigStream("github", 10*time.Second).attempt(0, time.Millisecond)
	runs := []*report.Summary{fast.run(t), slow.run(t), bare.run(t)}
	results := report.CheckGates(runs, []report.Gate{report.GateSlowResponses, report.GateForgedAccepted}, report.GateOptions{Timeouts: catalogueLike})
	want := []struct {
		status report.GateStatus
		msg    string
	}{
		{report.GatePass, "every answer came within stripe's 30s timeout (p99 4.00s, max 4.00s); 26.00s to spare; too slow for discord 3s, slack 3s"},
		{report.GatePass, "your handler turned away the one request"},
		{report.GateFail, "1 of 1 attempt that reached the handler waited past slack's 3s timeout"},
		{report.GateFail, "let 1 of 1 kind of attack through (bad-signature)"},
		{report.GatePass, "every answer came within github's 10s timeout"},
		{report.GateUnchecked, "cannot be checked: no request your handler must reject was sent"},
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
}
