package report

import (
	"fmt"
	"strings"
	"time"
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
// "NOT IDEMPOTENT: 5 replayed requests processed more than once" (an
// attack's, on ids of their own), "UNKNOWN: no duplicate reached the
// handler".
func chartVerdict(rep *Report) string {
	worst := -1
	var j Judgement
	var run *Summary
	rank := map[Verdict]int{Idempotent: 0, NoVerdict: 1, NotIdempotent: 2}
	for _, r := range rep.Runs {
		jr := r.Judge()
		if rank[jr.Verdict] > worst {
			worst, j, run = rank[jr.Verdict], jr, r
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
		// A replay an attack sent goes on an id of its own: no row of a
		// timeline is about it, so the title says which offenders they are.
		switch n := run.ReplaysProcessedAgain(); {
		case n == j.Offenders:
			why = thousands(n) + " replayed " + plural(n, "request", "requests") + " processed more than once"
		case n > 0:
			why += ", " + thousands(n) + " of them replayed " + plural(n, "request", "requests")
		}
	}
	if why == "" {
		return word
	}
	if len(rep.Runs) > 1 && j.Verdict != Idempotent {
		why += " (worst of the runs)"
	}
	return word + ": " + why
}

// chartSignature is a chart title's line on the signature check when the
// handler let an attack through, over the runs whose check failed:
// "SIGNATURE CHECK NOT ENFORCED: 30 attack requests answered 2xx, 25 side
// effects", naming those runs among several; "" when none failed.
func chartSignature(rep *Report) string {
	var failed []string
	accepted, effects := 0, 0
	for _, r := range rep.Runs {
		if r.SignatureCheck() != SignatureNotEnforced {
			continue
		}
		_, _, a, e := r.letThrough()
		accepted, effects = accepted+a, effects+e
		failed = append(failed, r.Policy)
	}
	if len(failed) == 0 {
		return ""
	}
	s := "SIGNATURE CHECK NOT ENFORCED"
	if len(rep.Runs) > 1 {
		s += " (" + strings.Join(failed, ", ") + ")"
	}
	return s + ": " + letThroughWords(accepted, effects, thousands, "attack request answered 2xx", "attack requests answered 2xx")
}

// chartTotals are the totals a chart's title gives: "200 events: delivered
// 33 · LOST 167", and for an interrupted run how far it got: "INTERRUPTED:
// 43,841 of 100,000 events started, 40,114 delivered". Without that, the
// events never started would read as lost. A run a failed restart of its
// handler stopped is said as stopped, as the text report says it
// (chartCut).
func chartTotals(rep *Report) string {
	events, delivered, lost := 0, 0, 0
	unstarted, interrupted := 0, false
	for _, r := range rep.Runs {
		events += max(r.Events, r.Planned)
		unstarted += r.NeverStarted()
		interrupted = interrupted || r.Interrupted || r.RestartFailed != nil
		delivered += r.Delivered
		lost += r.Lost
	}
	s := fmt.Sprintf("%s %s: delivered %s", thousands(events), plural(events, "event", "events"), thousands(delivered))
	switch {
	case unstarted > 0:
		s = fmt.Sprintf("%s: %s of %s %s started, %s delivered", chartCut(rep), thousands(events-unstarted), thousands(events), plural(events, "event", "events"), thousands(delivered))
	case interrupted:
		s = chartCut(rep) + " · " + s
	}
	if lost > 0 {
		s += " · LOST " + thousands(lost)
	}
	return s
}

// chartCut says what cut the chart's runs short, decided as the text
// report decides its STOPPED and INTERRUPTED lines: "INTERRUPTED"; "STOPPED
// at the failed restart (+30m)" for a run a failed restart of its handler
// stopped; "STOPPED at a failed restart (stripe +30m)" among several runs
// ("STOPPED at failed restarts (stripe +30m, shopify +45m)" for more than
// one), after "INTERRUPTED · " when another of them was interrupted.
func chartCut(rep *Report) string {
	var stops []string
	interrupted := false
	for _, r := range rep.Runs {
		switch {
		case r.RestartFailed != nil:
			at := "+" + dur(r.RestartFailed.At)
			if len(rep.Runs) > 1 {
				at = r.Policy + " " + at
			}
			stops = append(stops, at)
		case r.Interrupted:
			interrupted = true
		}
	}
	switch {
	case len(stops) == 0:
		return "INTERRUPTED"
	case len(rep.Runs) == 1:
		return "STOPPED at the failed restart (" + stops[0] + ")"
	}
	s := plural(len(stops), "STOPPED at a failed restart (", "STOPPED at failed restarts (") + strings.Join(stops, ", ") + ")"
	if interrupted {
		s = "INTERRUPTED · " + s
	}
	return s
}

// thousandsIn rewrites n's digits in s with thousands separators.
func thousandsIn(s string, n int) string {
	return strings.Replace(s, fmt.Sprint(n), thousands(n), 1)
}

// ttlChartNote is the TTL chart's note: what its solid and dashed lines
// are, for those it draws (obs: a run had duplicates after a stored key;
// worst: a policy retries), and when no panel has a solid line, why;
// longest are the longest waits its dots mark, the one of a single panel
// said.
func ttlChartNote(obs, worst bool, longest []time.Duration) string {
	var s []string
	if obs {
		s = append(s, "Solid: duplicate arrivals in this run that came after their key expired.")
		switch len(longest) {
		case 0:
		case 1:
			s = append(s, "The dot is where it reaches 0: the longest wait from a stored key to a duplicate, "+dur(longest[0])+".")
		default:
			s = append(s, "The dot is where it reaches 0: the longest wait from a stored key to a duplicate.")
		}
	} else {
		s = append(s, "No duplicate came after a stored key, so no panel has a solid line.")
	}
	if worst {
		s = append(s, "Dashed: worst case, the handler did the work at the first attempt and every answer was lost, so each retry of the schedule arrives.")
	}
	return strings.Join(append(s, "One panel per provider, each in its own colour."), " ")
}

// restartTimes says when a run's handler was restarted, for a chart that
// draws no line for them: "at +15m, +30m and +45m", or past four of them
// "12 times, from +15m to +3h".
func restartTimes(at []time.Duration) string {
	if len(at) > 4 {
		return fmt.Sprintf("%d times, from +%s to +%s", len(at), dur(at[0]), dur(at[len(at)-1]))
	}
	words := make([]string, len(at))
	for i, d := range at {
		words[i] = "+" + dur(d)
	}
	if len(words) == 1 {
		return "at " + words[0]
	}
	return "at " + strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1]
}

// replaysNote is a timeline note's sentence on the n replayed requests an
// attack sent that were processed more than once, which no row shows.
func replaysNote(n int) string {
	return plural(n, "The replayed request processed more than once is an attack's, on an id of its own: no row shows it.",
		fmt.Sprintf("The %s replayed requests processed more than once are an attack's, on ids of their own: no row shows them.", thousands(n)))
}
