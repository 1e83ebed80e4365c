package report_test

import (
	"strings"
	"testing"
	"time"

	"github.com/retrysim/retrysim/policies"
	"github.com/retrysim/retrysim/report"
	"github.com/retrysim/retrysim/simulator"
)

var catalogueLike = []report.Timeout{
	{Policy: "slack", Timeout: 3 * time.Second}, {Policy: "discord", Timeout: 3 * time.Second},
	{Policy: "shopify-2024", Timeout: 5 * time.Second}, {Policy: "github", Timeout: 10 * time.Second},
	{Policy: "stripe", Timeout: 30 * time.Second},
}

func verdicts(hs []report.Headroom) map[string]string {
	out := map[string]string{}
	for _, h := range hs {
		out[h.Policy] = h.Verdict
	}
	return out
}

func TestHeadroom(t *testing.T) {
	ms := time.Millisecond
	cases := []struct {
		name      string
		policy    string
		timeout   time.Duration
		latencies []time.Duration
		cutOff    int
		want      map[string]string
		over      map[string]int
	}{
		{"fast everywhere", "stripe", 30 * time.Second, []time.Duration{ms, 2 * ms, 40 * ms}, 0,
			map[string]string{"stripe": report.HeadroomOK, "slack": report.HeadroomOK, "shopify-2024": report.HeadroomOK}, nil},
		{"4 s on some: fine for Stripe, close for Shopify's 5 s, too slow for 3 s", "stripe", 30 * time.Second,
			[]time.Duration{ms, ms, 4 * time.Second, 2 * ms, 4*time.Second + 20*ms}, 0,
			map[string]string{"stripe": report.HeadroomOK, "github": report.HeadroomOK, "shopify-2024": report.HeadroomClose,
				"slack": report.HeadroomTooSlow, "discord": report.HeadroomTooSlow},
			map[string]int{"slack": 2, "discord": 2, "shopify-2024": 0}},
		{"exactly the timeout is in time", "github", 10 * time.Second, []time.Duration{3 * time.Second}, 0,
			map[string]string{"slack": report.HeadroomClose, "github": report.HeadroomOK}, map[string]int{"slack": 0}},
		{"cut off at slack's 3 s: too slow there and for as short, unknown for longer", "slack", 3 * time.Second,
			[]time.Duration{ms, ms}, 1,
			map[string]string{"slack": report.HeadroomTooSlow, "discord": report.HeadroomTooSlow, "shopify-2024": report.HeadroomUnmeasured, "stripe": report.HeadroomUnmeasured},
			map[string]int{"slack": 1, "discord": 1, "stripe": 0}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := newSigStream(tc.policy, tc.timeout)
			for i, l := range tc.latencies {
				s.attempt(i, l)
			}
			for i := range tc.cutOff {
				s.add(simulator.Record{Kind: simulator.KindAttempt, EventID: "cut", Seq: 100 + i, Attempt: 1, Answer: simulator.Answer{Reached: true}, AttemptFacts: simulator.AttemptFacts{Outcome: simulator.Timeout}})
			}
			r := s.run(t)
			hs := r.Headroom(catalogueLike)
			if !hs[0].InUse || hs[0].Policy != tc.policy || hs[0].Timeout != tc.timeout {
				t.Errorf("first headroom %+v, want the run's own policy", hs[0])
			}
			if len(hs) != len(catalogueLike) {
				t.Errorf("%d headrooms, want the run's own and the catalogue's others (%d)", len(hs), len(catalogueLike))
			}
			got := verdicts(hs)
			for p, v := range tc.want {
				if got[p] != v {
					t.Errorf("%s: %s, want %s", p, got[p], v)
				}
			}
			for _, h := range hs {
				if n, ok := tc.over[h.Policy]; ok && h.Over != n {
					t.Errorf("%s: %d answers over, want %d", h.Policy, h.Over, n)
				}
				if h.Verdict == report.HeadroomTooSlow && h.Spare > 0 {
					t.Errorf("%s: too slow with %s to spare", h.Policy, h.Spare)
				}
			}
		})
	}
}

// TestHeadroomInEveryFormat: the latency figures and the verdicts show in
// the text, Markdown and JSON reports.
func TestHeadroomInEveryFormat(t *testing.T) {
	s := newSigStream("stripe", 30*time.Second)
	for i, l := range []time.Duration{time.Millisecond, 4 * time.Second} {
		s.attempt(i, l)
	}
	rep := &report.Report{Runs: []*report.Summary{s.run(t)}, Timeouts: catalogueLike, Verbose: true}
	want := map[string][]string{
		report.FormatText:     {"p50 1.0ms · p95 4.00s · p99 4.00s · max 4.00s over 2 answers", "discord, slack (3s): ✗ TOO SLOW: 1 of 2 answers took longer", "shopify-2024 (5s): close: 1.00s to spare"},
		report.FormatMarkdown: {"| shopify-2024 | 5s | 1.00s | close:", "| slack | 3s | −1.00s | ✗ TOO SLOW"},
		report.FormatJSON:     {`"p99_ms": 4000`, `"verdict": "too_slow"`, `"policy": "shopify-2024"`},
	}
	for format, lines := range want {
		var b strings.Builder
		if err := report.Write(&b, rep, format); err != nil {
			t.Fatal(err)
		}
		for _, l := range lines {
			if !strings.Contains(b.String(), l) {
				t.Errorf("%s lacks %q:\n%s", format, l, b.String())
			}
		}
	}
}

// TestTimeoutsOf: every policy's timeout, by policy name and in the
// catalogue's order, for the headroom table.
func TestTimeoutsOf(t *testing.T) {
	all := policies.Default().All()
	got := report.TimeoutsOf(all)
	if len(got) != len(all) || len(got) == 0 {
		t.Fatalf("%d timeouts of %d policies", len(got), len(all))
	}
	for i, p := range all {
		if got[i].Policy != p.Name || got[i].Timeout != p.Timeout.D() || got[i].Timeout <= 0 {
			t.Errorf("timeout %d: %+v, want %s's %s", i, got[i], p.Name, p.Timeout.D())
		}
	}
}
