package report_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/retrysim/retrysim/report"
	"github.com/retrysim/retrysim/simulator"
)

// A failed handshake is the first thing the report says and the first
// thing to change, in every format; a passed one is one ✓ line.
func TestHandshakeInTheReport(t *testing.T) {
	for _, tc := range []struct {
		name, problem string
		text          []string
		passed        bool
		status        int
	}{
		{"failed", "answered 200 without the challenge", []string{
			"HANDSHAKE FAILED: stripe sent url_verification when the endpoint was set up and it answered 200 without the challenge; stripe expects 200 with the challenge",
			"- fix this first: answer stripe's url_verification with 200 with the challenge",
		}, false, 200},
		{"passed", "", []string{"handshake: stripe sent url_verification when the endpoint was set up, and it was answered as stripe expects ✓"}, true, 200},
		{"refused 401", "answered 401", []string{
			"HANDSHAKE FAILED: stripe sent url_verification when the endpoint was set up and it answered 401",
			"It answered 401, as a handler does when the signature does not verify: check that it verifies with the secret retrysim signs with (Config.Secret)",
		}, false, 401},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newRecStream(1)
			hs := s.base(simulator.KindHandshake)
			hs.Handshake, hs.HandshakeExpect, hs.HandshakeProblem, hs.HandlerStatus = "url_verification", "200 with the challenge", tc.problem, tc.status
			s.recs = append(s.recs, hs)
			if tc.passed {
				s.attempt(0, 1, 0, simulator.Delivered, 200, true, ms).fate(0, simulator.FateDelivered)
			} else {
				s.fate(0, simulator.FateDisabled)
			}
			runs, err := report.Summarize(s.end(nil, false))
			if err != nil {
				t.Fatal(err)
			}
			text, md, js := renderAll(t, &report.Report{Runs: runs, Width: -1})
			for _, want := range tc.text {
				if !strings.Contains(text, want) {
					t.Errorf("text lacks %q:\n%s", want, text)
				}
			}
			if !tc.passed {
				lines := strings.Split(text, "\n")
				if len(lines) < 4 || !strings.Contains(lines[3], "HANDSHAKE FAILED") {
					t.Errorf("the failed handshake is not the first line after the header:\n%s", text)
				}
			}
			if !strings.Contains(md, `url\_verification`) {
				t.Errorf("markdown does not mention the handshake:\n%s", md)
			}
			var doc struct {
				Runs []struct {
					Handshake *struct {
						Name   string `json:"name"`
						Passed bool   `json:"passed"`
					} `json:"handshake"`
				} `json:"runs"`
			}
			if err := json.Unmarshal([]byte(js), &doc); err != nil {
				t.Fatal(err)
			}
			if len(doc.Runs) != 1 || doc.Runs[0].Handshake == nil || doc.Runs[0].Handshake.Passed != tc.passed {
				t.Errorf("JSON handshake %+v, want passed %v", doc.Runs, tc.passed)
			}
		})
	}
}

// After a failed handshake the provider sent nothing, attacks included: the
// signature check says so, not that no attack applies or that the scenario
// has none, and the forged-accepted gate gives the same reason.
func TestSignatureCheckAfterAFailedHandshake(t *testing.T) {
	for _, tc := range []struct {
		name       string
		notApplies bool
	}{
		{"a scenario with an attack that does not apply", true},
		{"a scenario with no attack that was recorded", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newRecStream(1)
			hs := s.base(simulator.KindHandshake)
			hs.Handshake, hs.HandshakeExpect, hs.HandshakeProblem, hs.HandlerStatus = "PING", `200 with {"type": 1}`, "answered 401", 401
			s.recs = append(s.recs, hs)
			if tc.notApplies {
				na := s.base(simulator.KindAttack)
				na.Attack, na.NotApplicable = "stale-timestamp", "stripe documents no bound on its signed timestamp's age"
				s.recs = append(s.recs, na)
			}
			s.fate(0, simulator.FateDisabled)
			runs, err := report.Summarize(s.end(map[string]int{}, false))
			if err != nil {
				t.Fatal(err)
			}
			want := "not tested: the PING handshake failed, so stripe never enabled the endpoint and sent it nothing, attacks included"
			if got := runs[0].SignatureLine(); got != want {
				t.Errorf("signature line\n %q\nwant\n %q", got, want)
			}
			res := report.CheckGates(runs, []report.Gate{report.GateForgedAccepted}, report.GateOptions{})
			if len(res) != 1 || res[0].Status != report.GateUnchecked || res[0].Reason != report.GateReason(report.SigHandshakeFailed) {
				t.Errorf("forged-accepted gate %+v, want unknown because of the handshake", res)
			}
		})
	}
}
