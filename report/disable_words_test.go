package report_test

import (
	"bytes"
	"context"
	"html"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/retrysim/retrysim/policies"
	"github.com/retrysim/retrysim/policies/policytest"
	"github.com/retrysim/retrysim/report"
	"github.com/retrysim/retrysim/scenarios/scenariotest"
	"github.com/retrysim/retrysim/simulator"
)

// TestDisableWordedByItsRule: a disable is worded from the rule that made
// it, in every place a report says it — the lost-events gate's message
// (text, markdown, JUnit) and "what to change" — for every form of rule:
// not "after 0 failures in a row" for a rule that counts no failures.
func TestDisableWordedByItsRule(t *testing.T) {
	blackHole := scenariotest.Lookup(t, "black-hole")
	gone := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.WriteHeader(http.StatusGone)
	})
	happy := scenariotest.Lookup(t, "happy")
	for _, c := range []struct {
		name, policy string
		cfg          simulator.Config
		gate, advice string
	}{{
		name: "consecutive failures", policy: "shopify",
		cfg:    simulator.Config{Scenario: blackHole, DryRun: true, Events: 12},
		gate:   "because shopify disabled the endpoint after 19 failures in a row",
		advice: "alert on failing deliveries long before 19 failures in a row",
	}, {
		name: "Slack's failure rate", policy: "slack-docs",
		cfg:    simulator.Config{Scenario: blackHole, DryRun: true, Events: 400, Over: 10 * time.Minute},
		gate:   "because slack disabled the endpoint when over 95 % of its attempts within 1h had failed",
		advice: "alert on failing deliveries long before over 95 % of them within 1h fail",
	}, {
		name: "Svix failing for days", policy: "svix",
		cfg:    simulator.Config{Scenario: blackHole, DryRun: true, Events: 30, Over: 6 * policies.Day},
		gate:   "because svix disabled the endpoint after every attempt had failed for 5d",
		advice: "alert on failing deliveries long before they have failed for 5d",
	}, {
		name: "a 410 that disables at once", policy: "standard-webhooks",
		cfg:    simulator.Config{Scenario: happy, Handler: gone, Events: 3},
		gate:   "because your handler's answer disabled the endpoint (endpoint disabled by the answer 410)",
		advice: "lost when your handler's answer disabled the endpoint (endpoint disabled by the answer 410): answer that way only",
	}} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			pol := policytest.Lookup(t, c.policy)
			agg := report.NewAggregator()
			cfg := c.cfg
			cfg.Policy, cfg.Seed, cfg.Sink = pol, 5, agg.Add
			if _, err := simulator.Run(context.Background(), cfg); err != nil {
				t.Fatal(err)
			}
			runs := agg.Runs()
			if runs[0].LostToDisable == 0 {
				t.Fatalf("no event lost to a disable (disabled at %v by %q)", runs[0].DisabledAt, runs[0].DisabledBy)
			}
			rep := &report.Report{Runs: runs, Gates: report.CheckGates(runs, []report.Gate{report.GateLostEvents}, report.GateOptions{})}
			text, md, _ := renderAll(t, rep)
			var junit bytes.Buffer
			if err := report.WriteJUnit(&junit, rep); err != nil {
				t.Fatal(err)
			}
			if msg := rep.Gates[0].Message; !strings.Contains(msg, c.gate) {
				t.Errorf("gate message %q\nwant it to say %q", msg, c.gate)
			}
			for format, out := range map[string]string{"text": unwrap(text), "markdown": unwrap(md), "junit": html.UnescapeString(junit.String())} {
				if !strings.Contains(out, c.gate) && !strings.Contains(out, mdEscape(c.gate)) {
					t.Errorf("%s: the gate's message does not say %q", format, c.gate)
				}
				if strings.Contains(out, " 0 failures in a row") {
					t.Errorf("%s words the disable as 0 failures in a row", format)
				}
			}
			for format, out := range map[string]string{"text": unwrap(text), "markdown": unwrap(md)} {
				if !strings.Contains(out, c.advice) && !strings.Contains(out, mdEscape(c.advice)) {
					t.Errorf("%s: what to change does not say %q:\n%s", format, c.advice, out)
				}
			}
		})
	}
}

// unwrap joins the lines a report wrapped to its width, so a test can look
// for a sentence.
func unwrap(s string) string {
	var b strings.Builder
	for _, line := range strings.Split(s, "\n") {
		b.WriteString(strings.TrimSpace(line))
		b.WriteByte(' ')
	}
	return b.String()
}
