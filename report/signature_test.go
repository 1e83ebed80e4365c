package report_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/retrysim/retrysim/report"
	"github.com/retrysim/retrysim/simulator"
)

func undetectable(r *simulator.Record) { r.Undetectable = "github signs no timestamp: only dedup" }
func original(status int) func(*simulator.Record) {
	return func(r *simulator.Record) { r.OriginalStatus = status }
}

func TestSignatureCheck(t *testing.T) {
	cases := []struct {
		name     string
		build    func(s *sigStream)
		want     string
		accepted []string
		line     string
	}{
		{"no attack", func(s *sigStream) {}, report.SignatureNotTested, nil, `Config.Scenario "forged"`},
		{"every attack rejected", func(s *sigStream) {
			s.attack("bad-signature", "x1", 401).attack("missing-signature", "x2", 400)
		}, report.SignatureEnforced, nil, "all 2 requests it must not trust (400 ×1, 401 ×1); none had a side effect"},
		{"a forgery credited", func(s *sigStream) {
			s.attack("bad-signature", "x1", 200).attack("missing-signature", "x2", 401)
			s.effects["x1"] = 1
		}, report.SignatureNotEnforced, []string{"bad-signature"}, "let 1 of 2 kinds of attack through (bad-signature): 1 request answered 2xx, 1 side effect"},
		{"a 2xx without an effect still lets a forgery through", func(s *sigStream) {
			s.attack("stale-timestamp", "x1", 200)
		}, report.SignatureNotEnforced, []string{"stale-timestamp"}, "1 request answered 2xx"},
		// An error is no acceptance, and no rejection either: the handler
		// failed, it did not verify.
		{"an error is no rejection", func(s *sigStream) {
			s.attack("bad-signature", "x1", 500).attack("missing-signature", "x2", 401)
		}, report.SignatureNotTested, nil,
			"not tested: your handler failed on 1 request it must not trust (500 ×1) instead of rejecting it with a 4xx: an error is not a rejection, so whether it verified it is unknown"},
		{"a replay a scheme cannot catch, absorbed by dedup", func(s *sigStream) {
			s.attack("replayed", "x1", 200, undetectable, original(200))
			s.effects["x1"] = 1
		}, report.SignatureEnforced, nil, "dedup absorbed 1 replay its signature cannot tell from retries; none had a side effect"},
		{"a replay whose timestamp should have stopped it", func(s *sigStream) {
			s.attack("replayed", "x1", 200, original(200))
			s.effects["x1"] = 1
		}, report.SignatureNotEnforced, []string{"replayed"}, "1 request answered 2xx"},
		{"nothing applies", func(s *sigStream) {
			s.attack("stale-timestamp", "", 0, func(r *simulator.Record) { r.NotApplicable = "github signs no timestamp" })
		}, report.SignatureNotTested, nil, "none of the scenario's attacks applies to stripe (stale-timestamp)"},
		{"no answer", func(s *sigStream) { s.attack("bad-signature", "x1", 0) }, report.SignatureNotTested, nil, "no attack request reached"},
		{"without an effects oracle, judged on the answers", func(s *sigStream) {
			s.known = false
			s.attack("bad-signature", "x1", 401)
		}, report.SignatureEnforced, nil, "judged on the answers alone"},
		{"the provider's probe answered wrongly", func(s *sigStream) {
			s.attack("bad-signature", "p1", 204, func(r *simulator.Record) { r.Probe, r.ProbeExpect = true, 401 })
		}, report.SignatureNotEnforced, []string{report.ProbeName}, "invalid-signature probe"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := newSigStream("stripe", 30*time.Second).attempt(0, time.Millisecond)
			s.effects["evt_a"] = 1
			tc.build(s)
			r := s.run(t)
			if got := r.SignatureCheck(); got != tc.want {
				t.Errorf("signature check %s, want %s (%s)", got, tc.want, r.SignatureLine())
			}
			if got := r.ForgedAccepted(); !slices.Equal(got, tc.accepted) {
				t.Errorf("accepted %v, want %v", got, tc.accepted)
			}
			if !strings.Contains(r.SignatureLine(), tc.line) {
				t.Errorf("line %q lacks %q", r.SignatureLine(), tc.line)
			}
			if r.Verdict() == report.NotIdempotent {
				t.Errorf("verdict %s: the attacks' own side effects must not count as duplicates", r.Verdict())
			}
		})
	}
}

// A handler that accepted none of the genuine deliveries proves nothing by
// rejecting forgeries: with the wrong secret it answers 401 to all, and a
// broken one 500. The report says the check was not tested, and the
// forged-accepted gate cannot pass.
func TestSignatureCheckWhenNothingGenuineWasAccepted(t *testing.T) {
	genuine := func(status int) func(s *sigStream) {
		return func(s *sigStream) {
			s.add(simulator.Record{Kind: simulator.KindAttempt, EventID: "evt_a", Seq: 0, Attempt: 1, Answer: simulator.Answer{Status: status, HandlerStatus: status, Reached: true, Latency: time.Millisecond}, AttemptFacts: simulator.AttemptFacts{Outcome: simulator.HTTPError}})
		}
	}
	for _, tc := range []struct {
		name   string
		policy string
		build  func(s *sigStream)
		line   string
		attack string // the per-attack line, "" for none
	}{
		{"a handler that answers 500 to everything", "stripe", func(s *sigStream) {
			genuine(500)(s)
			s.attack("bad-signature", "x1", 500).attack("missing-signature", "x2", 500)
		}, "not tested: your handler accepted none of the 1 genuine delivery either (500 ×1), so its answers to the requests it must not trust (500 ×2) cannot tell signature verification from a handler that turns everything away or is broken",
			"? bad-signature: 1 sent, answered 500 ×1, no side effect (1 answered with an error, not a rejection: your handler failed on it)"},
		{"a handler with the wrong secret", "stripe", func(s *sigStream) {
			genuine(401)(s)
			s.attack("bad-signature", "x1", 401)
		}, "not tested: your handler accepted none of the 1 genuine delivery either (401 ×1), so its answers to the requests it must not trust (401 ×1) cannot tell",
			"✓ bad-signature: 1 sent, answered 401 ×1, no side effect"},
		// Discord removes an endpoint that answers its probe with anything
		// but 401, before any event is sent.
		{"discord's probe answered 500", "discord", func(s *sigStream) {
			s.attack("bad-signature", "p1", 500, func(r *simulator.Record) { r.Probe, r.ProbeExpect = true, 401 })
		}, "not tested: no genuine delivery reached your handler, so its answers to the requests it must not trust (500 ×1) cannot tell", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newSigStream(tc.policy, 30*time.Second)
			tc.build(s)
			r := s.run(t)
			if got := r.SignatureCheck(); got != report.SignatureNotTested {
				t.Errorf("signature check %s, want not_tested", got)
			}
			if !strings.HasPrefix(r.SignatureLine(), tc.line) {
				t.Errorf("line %q, want %q", r.SignatureLine(), tc.line)
			}
			rep := &report.Report{Runs: []*report.Summary{r}, Width: -1, Verbose: true, Gates: report.CheckGates([]*report.Summary{r}, []report.Gate{report.GateForgedAccepted}, report.GateOptions{})}
			if g := rep.Gates[0]; g.Status != report.GateUnchecked || !strings.HasPrefix(g.Message, "cannot be checked: "+strings.TrimPrefix(tc.line, "not tested: ")) {
				t.Errorf("forged-accepted %s: %s", g.Status, g.Message)
			}
			text, md, _ := renderAll(t, rep)
			for _, want := range []string{"signature check: " + tc.line, tc.attack} {
				if !strings.Contains(text, want) {
					t.Errorf("text lacks %q:\n%s", want, text)
				}
			}
			if !strings.Contains(md, "**Signature check: not tested**") {
				t.Errorf("markdown lacks the verdict:\n%s", md)
			}
			if strings.Contains(text+md, "ENFORCED") {
				t.Errorf("report says ENFORCED:\n%s", text)
			}
		})
	}
}

// Where the scheme signs nothing a handler can bound, a replay is a retry:
// processed twice, it is a duplicate effect in the idempotency verdict,
// and the signature check does not fail on it; a replay that reached the
// handler tests its dedup, so the run is not "untested".
func TestReplayNoSignatureCanCatchIsARetry(t *testing.T) {
	for _, tc := range []struct {
		name    string
		effects int
		verdict report.Verdict
		line    string
	}{
		{"processed twice", 2, report.NotIdempotent, "1 replay it cannot tell from retries was processed again"},
		{"absorbed", 1, report.Idempotent, "dedup absorbed 1 replay"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newSigStream("github", 10*time.Second).attempt(0, time.Millisecond)
			s.effects["evt_a"] = 1
			s.attack("replayed", "x1", 200, func(r *simulator.Record) {
				r.Undetectable = "github signs no timestamp a handler can bound"
				r.OriginalStatus = 200
			})
			s.effects["x1"] = tc.effects
			r := s.run(t)
			if got := r.SignatureCheck(); got != report.SignatureEnforced || len(r.ForgedAccepted()) != 0 {
				t.Errorf("signature check %s, attacks through %v; want enforced, none (%s)", got, r.ForgedAccepted(), r.SignatureLine())
			}
			if !strings.Contains(r.SignatureLine(), tc.line) {
				t.Errorf("signature line %q lacks %q", r.SignatureLine(), tc.line)
			}
			if r.Verdict() != tc.verdict || r.DuplicateArrivals != 1 {
				t.Errorf("verdict %s with %d duplicate arrivals, want %s with the replay's 1: %s", r.Verdict(), r.DuplicateArrivals, tc.verdict, r.VerdictLine())
			}
		})
	}
}
