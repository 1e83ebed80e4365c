package report_test

import (
	"bytes"
	"html"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/retrysim/retrysim/policies"
	"github.com/retrysim/retrysim/report"
	"github.com/retrysim/retrysim/simulator"
)

// attackedRun is a run of two events delivered at once beside attack
// requests: a bad signature answered as letThrough says, and a replay its
// handler processed again when replayed is set.
func attackedRun(t *testing.T, letThrough int, replayed bool) *report.Report {
	t.Helper()
	s := newSigStream("stripe", 30*time.Second)
	s.recs[0].Events = 2
	s.attempt(0, time.Millisecond).attempt(1, time.Millisecond)
	for seq := range 2 {
		s.add(simulator.Record{Kind: simulator.KindEvent, EventID: "evt_" + string(rune('a'+seq)), Seq: seq, EventFacts: simulator.EventFacts{Attempts: 1, Fate: simulator.FateDelivered}})
	}
	s.effects["evt_a"], s.effects["evt_b"] = 1, 1
	s.attack("bad-signature", "forged_1", letThrough)
	if policies.Is2xx(letThrough) {
		s.effects["forged_1"] = 1
	}
	if replayed {
		s.attack("replayed", "replay_1", 200, func(r *simulator.Record) { r.Undetectable, r.OriginalStatus = "no timestamp", 200 })
		s.effects["replay_1"] = 2
	}
	return &report.Report{Runs: []*report.Summary{s.run(t)}}
}

// chartText is the texts of a chart drawn as SVG, one after the other with
// a space between (a note's lines are texts of their own), or the HTML
// report's title.
func chartText(t *testing.T, rep *report.Report, chart string) string {
	t.Helper()
	var buf bytes.Buffer
	if chart == report.FormatHTML {
		if err := report.WriteHTML(&buf, rep, report.ChartOptions{}); err != nil {
			t.Fatal(err)
		}
		m := regexp.MustCompile(`<title>([^<]*)</title>`).FindStringSubmatch(buf.String())
		if m == nil {
			t.Fatal("the HTML report has no title")
		}
		return html.UnescapeString(m[1])
	}
	if err := report.WriteChart(&buf, rep, report.FormatSVG, report.ChartOptions{Chart: chart}); err != nil {
		t.Fatal(err)
	}
	var texts []string
	for _, m := range regexp.MustCompile(`<text[^>]*>([^<]*)</text>`).FindAllStringSubmatch(buf.String(), -1) {
		texts = append(texts, html.UnescapeString(m[1]))
	}
	return strings.Join(texts, " ")
}

// The charts a run's verdict titles, and the HTML report's title, say so
// when the handler let an attack through: the attacks have no row or bar
// of their own, and the idempotency verdict alone read as a clean run.
func TestChartsSayTheSignatureCheckFailed(t *testing.T) {
	const failed = "SIGNATURE CHECK NOT ENFORCED: 1 attack request answered 2xx, 1 side effect"
	for _, c := range []struct {
		status int
		want   bool
	}{{200, true}, {401, false}} {
		rep := attackedRun(t, c.status, false)
		if got := rep.Runs[0].SignatureCheck() == report.SignatureNotEnforced; got != c.want {
			t.Fatalf("answered %d: signature check %s", c.status, rep.Runs[0].SignatureCheck())
		}
		for _, chart := range []string{report.ChartTimeline, report.ChartStorm, report.FormatHTML} {
			text := chartText(t, rep, chart)
			if got := strings.Contains(text, failed); got != c.want {
				t.Errorf("attack answered %d: the %s says %q: %v, want %v", c.status, chart, failed, got, c.want)
			}
		}
	}
}

// A replayed request an attack sent, processed twice, is the offender of
// a NOT IDEMPOTENT run, on an id no row of the timeline is about: its title
// says the offenders are replays, and its note that no row shows them.
func TestTimelineSaysTheOffendersAreReplays(t *testing.T) {
	rep := attackedRun(t, 401, true)
	if j := rep.Runs[0].Judge(); j.Verdict != report.NotIdempotent || j.Offenders != 1 {
		t.Fatalf("verdict %s with %d offenders, want NOT IDEMPOTENT with the replay", j.Verdict, j.Offenders)
	}
	text := chartText(t, rep, report.ChartTimeline)
	for _, want := range []string{"NOT IDEMPOTENT: 1 replayed request processed more than once", "no row shows it"} {
		if !strings.Contains(text, want) {
			t.Errorf("the timeline does not say %q", want)
		}
	}
}
