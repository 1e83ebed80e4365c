package report

import (
	"fmt"
	"strings"
)

// reasonShort is why a verdict is what it is, short enough for a chart's
// title.
var reasonShort = map[Reason]string{
	ReasonProcessedOnce:    "every accepted event processed once",
	ReasonDuplicateEffects: "events processed more than once",
	ReasonModelled:         "a dry run sends nothing",
	ReasonNoOracle:         "no effects oracle",
	ReasonOracleError:      "the effects oracle failed",
	ReasonOracleBlind:      "the oracle does not know this run's events",
	ReasonNothingReached:   "nothing reached the handler",
	ReasonNoneAccepted:     "the handler accepted nothing",
	ReasonUnsettled:        "effects still changing",
	ReasonPartialCoverage:  "the oracle reports only some events",
	ReasonNoDuplicate:      "no duplicate reached the handler",
}

// chartVerdict is a chart title's verdict with its reason, the worst of
// the runs: "NOT IDEMPOTENT: 12 events processed more than once",
// "UNKNOWN: no duplicate reached the handler".
func chartVerdict(rep *Report) string {
	worst := -1
	var j Judgement
	rank := map[Verdict]int{Idempotent: 0, NoVerdict: 1, NotIdempotent: 2}
	for _, r := range rep.Runs {
		jr := r.Judge()
		if rank[jr.Verdict] > worst {
			worst, j = rank[jr.Verdict], jr
		}
	}
	if worst < 0 {
		return ""
	}
	word := map[Verdict]string{Idempotent: "IDEMPOTENT", NotIdempotent: "NOT IDEMPOTENT", NoVerdict: "UNKNOWN"}[j.Verdict]
	why := reasonShort[j.Reason]
	if j.Reason == ReasonDuplicateEffects {
		why = counted(j.Offenders, "event", "events") + " processed more than once"
		why = thousandsIn(why, j.Offenders)
	}
	if why == "" {
		return word
	}
	if len(rep.Runs) > 1 && j.Verdict != Idempotent {
		why += " (worst of the runs)"
	}
	return word + ": " + why
}

// chartTotals are the totals a chart's title gives: "200 events: delivered
// 33 · LOST 167", and for an interrupted run how far it got: "INTERRUPTED:
// 43,841 of 100,000 events started, 40,114 delivered". Without that, the
// events never started would read as lost.
func chartTotals(rep *Report) string {
	events, delivered, lost := 0, 0, 0
	unstarted, interrupted := 0, false
	for _, r := range rep.Runs {
		events += max(r.Events, r.Planned)
		unstarted += r.NeverStarted()
		interrupted = interrupted || r.Interrupted
		delivered += r.Delivered
		lost += r.Lost
	}
	s := fmt.Sprintf("%s %s: delivered %s", thousands(events), plural(events, "event", "events"), thousands(delivered))
	switch {
	case unstarted > 0:
		s = fmt.Sprintf("INTERRUPTED: %s of %s %s started, %s delivered", thousands(events-unstarted), thousands(events), plural(events, "event", "events"), thousands(delivered))
	case interrupted:
		s = "INTERRUPTED · " + s
	}
	if lost > 0 {
		s += " · LOST " + thousands(lost)
	}
	return s
}

// thousandsIn rewrites n's digits in s with thousands separators.
func thousandsIn(s string, n int) string {
	return strings.Replace(s, fmt.Sprint(n), thousands(n), 1)
}
