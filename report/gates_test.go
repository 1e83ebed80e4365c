package report_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/retrysim/retrysim/report"
	"github.com/retrysim/retrysim/simulator"
)

func TestGates(t *testing.T) {
	clean := func() *recStream {
		s := newRecStream(2)
		s.attempt(0, 1, 0, simulator.Delivered, 200, true, 5*ms).fate(0, simulator.FateDelivered)
		return lostResponse(s, 1, 5*time.Minute)
	}
	for _, tc := range []struct {
		name    string
		recs    []simulator.Record
		gate    report.Gate
		opts    report.GateOptions
		status  report.GateStatus
		message string
	}{
		{"duplicate-effects passes with one effect each", clean().end(map[string]int{"evt_a": 1, "evt_b": 1}, false),
			report.GateDuplicateEffects, report.GateOptions{}, report.GatePass, "no event was processed more than once (1 duplicate arrival absorbed)"},
		{"duplicate-effects fails naming the offender and its count", clean().end(map[string]int{"evt_a": 1, "evt_b": 2}, false),
			report.GateDuplicateEffects, report.GateOptions{}, report.GateFail, "1 event of 2 processed more than once: evt_b processed 2 times"},
		{"duplicate-effects cannot pass without an oracle", clean().end(nil, false),
			report.GateDuplicateEffects, report.GateOptions{}, report.GateUnchecked, "pass Config.Effects"},
		{"an interrupted run vouches for nothing", clean().end(map[string]int{"evt_a": 1, "evt_b": 1}, true),
			report.GateDuplicateEffects, report.GateOptions{}, report.GateUnchecked, "interrupted"},
		{"lost-events passes when all were delivered", clean().end(nil, false),
			report.GateLostEvents, report.GateOptions{}, report.GatePass, "all 2 events were delivered"},
		{"lost-events fails on an exhausted event",
			newRecStream(1).attempt(0, 1, 0, simulator.HTTPError, 500, true, ms).fate(0, simulator.FateExhausted).end(nil, false),
			report.GateLostEvents, report.GateOptions{}, report.GateFail, "1 of 1 event was never delivered"},
		{"slow-responses passes with fast answers", clean().end(nil, false),
			report.GateSlowResponses, report.GateOptions{}, report.GatePass, "every answer came within stripe's 30s timeout (p99 5.0ms, max 5.0ms)"},
		{"slow-responses fails when the handler did not answer in time",
			newRecStream(1).attempt(0, 1, 0, simulator.Timeout, 0, true, 30*time.Second).
				attempt(0, 2, time.Minute, simulator.Delivered, 200, true, ms).fate(0, simulator.FateDelivered).end(nil, false),
			report.GateSlowResponses, report.GateOptions{}, report.GateFail,
			"1 of 2 attempts that reached the handler waited past stripe's 30s timeout (1 got no answer within 30s; the answers that came had p99 1.0ms, max 1.0ms)"},
		{"slow-responses names answers slower than the timeout",
			newRecStream(1).attempt(0, 1, 0, simulator.Timeout, 200, true, 31*time.Second).
				attempt(0, 2, time.Minute, simulator.Delivered, 200, true, ms).fate(0, simulator.FateDelivered).end(nil, false),
			report.GateSlowResponses, report.GateOptions{}, report.GateFail,
			"1 of 2 attempts that reached the handler waited past stripe's 30s timeout (1 was answered slower than that; the answers that came had p99 31.00s, max 31.00s)"},
		{"slow-responses ignores latency a scenario injected (the handler answered)",
			newRecStream(1).attempt(0, 1, 0, simulator.Timeout, 200, true, 2*ms).
				attempt(0, 2, time.Minute, simulator.Delivered, 200, true, ms).fate(0, simulator.FateDelivered).end(nil, false),
			report.GateSlowResponses, report.GateOptions{}, report.GatePass, "every answer came within"},
		{"redirects passes without one", clean().end(nil, false),
			report.GateRedirects, report.GateOptions{}, report.GatePass, "no delivery failed on a redirect"},
		{"redirects fails on an unfollowed 3xx",
			newRecStream(1).attempt(0, 1, 0, simulator.Redirect, 308, true, ms).
				attempt(0, 2, time.Minute, simulator.Delivered, 200, true, ms).fate(0, simulator.FateDelivered).end(nil, false),
			report.GateRedirects, report.GateOptions{}, report.GateFail, "1 attempt failed because the endpoint answered with a redirect (3xx) that stripe does not follow"},
		{"ttl-too-short needs a configured TTL", clean().end(nil, false),
			report.GateTTLTooShort, report.GateOptions{}, report.GateUnchecked, "with GateOptions.TTLConfigured"},
		{"ttl-too-short fails below the policy's window",
			lostResponse(newRecStream(1), 0, 30*time.Hour).end(nil, false),
			report.GateTTLTooShort, report.GateOptions{TTLConfigured: 24 * time.Hour}, report.GateFail,
			"a 1d TTL is shorter than the 3d a dedup key must last (stripe retries for 3d; longest wait seen from a key to a duplicate 1d6h): a retry after the key expired is processed again; 1 duplicate arrivals in this run came after it; recommend 4d"},
		{"ttl-too-short passes at the window", clean().end(nil, false),
			report.GateTTLTooShort, report.GateOptions{TTLConfigured: 72 * time.Hour}, report.GatePass, "a 3d TTL covers stripe's 3d retry window"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			runs, err := report.Summarize(tc.recs)
			if err != nil {
				t.Fatal(err)
			}
			res := report.CheckGates(runs, []report.Gate{tc.gate}, tc.opts)
			if len(res) != 1 {
				t.Fatalf("%d results, want 1", len(res))
			}
			g := res[0]
			if g.Status != tc.status || !strings.Contains(g.Message, tc.message) {
				t.Errorf("%s: %s %q\nwant %s containing %q", tc.gate, g.Status, g.Message, tc.status, tc.message)
			}
			if g.Failed() != (tc.status != report.GatePass) {
				t.Errorf("Failed() = %v for status %s", g.Failed(), g.Status)
			}
		})
	}
}

func TestParseGates(t *testing.T) {
	for _, tc := range []struct {
		in   []string
		want string
		err  string
	}{
		{in: []string{"duplicate-effects,lost-events"}, want: "duplicate-effects lost-events"},
		{in: []string{" Redirects ", "redirects", "ttl-too-short"}, want: "redirects ttl-too-short"},
		{in: []string{""}, want: ""},
		{in: []string{"duplicates,lost"}, err: `unknown gate "duplicates" (valid: duplicate-effects, lost-events, slow-responses, redirects, ttl-too-short, forged-accepted)` + "\n" + `unknown gate "lost"`},
	} {
		t.Run(strings.Join(tc.in, "|"), func(t *testing.T) {
			gates, err := report.ParseGates(tc.in)
			if tc.err != "" {
				if !errors.Is(err, report.ErrUnknownGate) || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, g := range gates {
				names = append(names, string(g))
			}
			if got := strings.Join(names, " "); got != tc.want {
				t.Errorf("gates %q, want %q", got, tc.want)
			}
		})
	}
}

// Every gate result carries a reason code beside its words: what a CI
// script can act on without reading the sentence.
func TestGateReasons(t *testing.T) {
	s := newRecStream(2)
	s.attempt(0, 1, 0, simulator.Delivered, 200, true, 5*time.Millisecond).fate(0, simulator.FateDelivered)
	s.attempt(1, 1, 0, simulator.Timeout, 0, false, 0).fate(1, simulator.FateExhausted)
	runs, err := report.Summarize(s.end(map[string]int{"evt_a": 1}, false))
	if err != nil {
		t.Fatal(err)
	}
	want := map[report.Gate]report.GateReason{
		report.GateDuplicateEffects: report.GateReason(report.ReasonNoDuplicate),
		report.GateLostEvents:       report.GateEventsLost,
		report.GateSlowResponses:    report.GateWithinTimeout,
		report.GateRedirects:        report.GateNoRedirect,
		report.GateTTLTooShort:      report.GateNoTTL,
		report.GateForgedAccepted:   report.GateReason(report.SigNoAttack),
	}
	for _, g := range report.CheckGates(runs, report.Gates(), report.GateOptions{}) {
		if g.Reason != want[g.Gate] {
			t.Errorf("%s: reason %q, want %q (%s)", g.Gate, g.Reason, want[g.Gate], g.Message)
		}
	}
}

// A command refuses, before anything is sent, the gates a planned run
// could never check, in the words report keeps for them.
func TestGatePlanRefusals(t *testing.T) {
	flag := func(s simulator.Setting) string {
		return map[simulator.Setting]string{report.SettingGates: "--fail-on", report.SettingDryRun: "--dry-run", report.SettingTTLConfigured: "--ttl-configured", simulator.SettingForgedScenario: "--scenario forged"}[s]
	}
	all := report.Gates()
	for _, tc := range []struct {
		name string
		plan report.GatePlan
		want []string
	}{
		{"a run that can check every gate", report.GatePlan{}, nil},
		{"a dry run", report.GatePlan{Modelled: true}, []string{
			"--fail-on duplicate-effects: a dry run sends nothing, so there are no side effects to judge: drop --dry-run",
			"--fail-on slow-responses: a dry run sends nothing, so no response time is measured: drop --dry-run",
			"--fail-on forged-accepted: a dry run sends nothing, so no forged request is answered: drop --dry-run",
		}},
		{"no oracle, no attack, no TTL", report.GatePlan{NoOracle: true, NoAttack: true, NoTTL: true, Scenario: "happy"}, []string{
			"--fail-on duplicate-effects: retrysim cannot see your handler's side effects",
			"--fail-on ttl-too-short: give the dedup TTL your handler uses with --ttl-configured (e.g. --ttl-configured 24h)",
			"--fail-on forged-accepted: scenario happy sends no request your handler must reject; use --scenario forged, or add",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			errs := tc.plan.Refusals(all, flag)
			if len(errs) != len(tc.want) {
				t.Fatalf("got %d refusals %v, want %d", len(errs), errs, len(tc.want))
			}
			for i, err := range errs {
				if !strings.HasPrefix(err.Error(), tc.want[i]) {
					t.Errorf("refusal %d = %q, want it to begin %q", i, err, tc.want[i])
				}
			}
			if got := tc.plan.Refusals([]report.Gate{report.GateLostEvents, report.GateRedirects}, flag); got != nil {
				t.Errorf("lost-events and redirects refused: %v", got)
			}
		})
	}
}

// TestGatesFailed: the exit sentence names each failed gate with its run,
// and says nothing when all passed.
func TestGatesFailed(t *testing.T) {
	s := newRecStream(1)
	s.attempt(0, 1, 0, simulator.HTTPError, 500, true, ms).fate(0, simulator.FateExhausted)
	runs, err := report.Summarize(s.end(nil, false))
	if err != nil {
		t.Fatal(err)
	}
	res := report.CheckGates(runs, []report.Gate{report.GateLostEvents, report.GateRedirects}, report.GateOptions{})
	got := report.GatesFailed(res)
	if want := "1 of 2 gate checks did not pass: lost-events (stripe: fail)"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if got := report.GatesFailed(res[1:]); got != "" {
		t.Errorf("all passed, yet %q", got)
	}
}

// TestGateRequest: every problem is reported at once, each naming its
// setting as the caller spells it; a good request gives the gates and
// the TTL.
func TestGateRequest(t *testing.T) {
	sp := func(s simulator.Setting) string { return "<" + string(s) + ">" }
	_, _, errs := report.GateRequest{Names: []string{"lost-events", "nope"}, TTLConfigured: "0h"}.Parse(false, sp)
	if len(errs) != 2 || !strings.HasPrefix(errs[0].Error(), "<CheckGates>: ") ||
		errs[1].Error() != "<GateOptions.TTLConfigured>: 0h is not a TTL (give a positive duration such as 24h)" {
		t.Errorf("errors %v", errs)
	}
	_, _, errs = report.GateRequest{Names: []string{"ttl-too-short"}}.Parse(false, sp)
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), "<GateOptions.TTLConfigured>") {
		t.Errorf("ttl-too-short without a TTL: %v", errs)
	}
	_, _, errs = report.GateRequest{}.Parse(true, sp)
	if len(errs) != 1 || !strings.HasPrefix(errs[0].Error(), "<output.Request.Format> junit reports the <CheckGates> gates: name at least one") {
		t.Errorf("junit without a gate: %v", errs)
	}
	gates, opts, errs := report.GateRequest{Names: []string{"ttl-too-short"}, TTLConfigured: "36h"}.Parse(true, sp)
	if len(errs) != 0 || len(gates) != 1 || opts.TTLConfigured != 36*time.Hour || opts.Spelling == nil {
		t.Errorf("gates %v, options %+v, errors %v", gates, opts, errs)
	}
}

// TestParseTTL: a positive duration, in any unit the policies use.
func TestParseTTL(t *testing.T) {
	for _, c := range []struct {
		in   string
		want time.Duration
		err  string
	}{
		{"24h", 24 * time.Hour, ""},
		{"7d", 7 * 24 * time.Hour, ""},
		{"0s", 0, "0s is not a TTL"},
		{"soon", 0, `"soon" is not a TTL`},
	} {
		d, err := report.ParseTTL(c.in)
		if d != c.want || (err == nil) != (c.err == "") || (err != nil && !strings.HasPrefix(err.Error(), c.err)) {
			t.Errorf("ParseTTL(%q) = %s, %v; want %s, %q", c.in, d, err, c.want, c.err)
		}
	}
}
