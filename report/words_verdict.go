package report

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/retrysim/retrysim/simulator"
)

// The words of the idempotency verdict (Judge decides it, judgement.go):
// the verdict line every report shows, its caveat, and why a run tested
// nothing.

// VerdictLine says the run's idempotency verdict in one line, as every
// report format shows it: IDEMPOTENT with the duplicates absorbed, NOT
// IDEMPOTENT with the offending ids and counts, or UNKNOWN with what the
// user can do to get a verdict; and how long the effects took to settle.
// It names settings the Go way (Report.Spelling names them otherwise).
func (r *Summary) VerdictLine() string { return words{}.verdictLine(r) }

// EffectsCaveat says, when the effects were read while the handler may
// still have been at work, why the verdict may miss effects; "" otherwise
// (and for an UNKNOWN verdict, which has nothing to qualify).
func (r *Summary) EffectsCaveat() string { return caveatWords(r.Judge()) }

// Untested says why the run put the handler's idempotency to no test, ""
// when it did: no delivery reached the handler, it accepted none (a wrong
// secret or path), or no duplicate reached it after it took an event in.
// A modelled run sends nothing and is judged by Verdict alone.
func (r *Summary) Untested() string {
	j := r.Judge()
	if !j.Untested() {
		return ""
	}
	return words{}.untested(r, j)
}

// verdictLine is VerdictLine.
func (w words) verdictLine(r *Summary) string {
	j := r.Judge()
	line := w.verdict(r, j)
	if c := caveatWords(j); c != "" {
		line += "; " + c
	}
	if j.Reason == ReasonUnsettled {
		return line // it says how long already
	}
	return line + settleWords(r)
}

func caveatWords(j Judgement) string {
	switch j.Caveat {
	case CaveatHandlersRunning:
		return fmt.Sprintf("%d handler %s still running when the effects were read; the verdict may miss their effects",
			j.Running, plural(j.Running, "call was", "calls were"))
	case CaveatUnsettled:
		return "your handler's effects were still changing when retrysim stopped reading them (or the run was interrupted); there may be more"
	case CaveatSettledOnQuiet:
		return fmt.Sprintf("settled on %s of quiet; an oracle that reports pending work makes this exact", secondsWords(j.Quiet))
	}
	return ""
}

// settleWords says how long retrysim read the effects of a handler behind a
// URL until they settled; "" when it read them once.
func settleWords(r *Summary) string {
	if r.SettleLimit == 0 || !r.EffectsKnown {
		return ""
	}
	if r.EffectsUnsettled {
		return fmt.Sprintf(" (effects read for %s after the last attempt)", secondsWords(r.SettleWait))
	}
	return fmt.Sprintf(" (effects settled %s after the last attempt)", secondsWords(r.SettleWait))
}

// secondsWords says a real wait to a tenth of a second.
func secondsWords(d time.Duration) string { return fmt.Sprintf("%.1fs", d.Seconds()) }

func (w words) verdict(r *Summary, j Judgement) string {
	switch j.Verdict {
	case Idempotent:
		return fmt.Sprintf("every event processed at most once ✓ IDEMPOTENT (%s absorbed)", counted(j.Duplicates, "duplicate arrival", "duplicate arrivals"))
	case NotIdempotent:
		off := r.Offenders()
		// The worst first, with their full ids: people copy them.
		slices.SortStableFunc(off, func(a, b string) int { return cmp.Compare(r.Times(b), r.Times(a)) })
		list := make([]string, 0, 3)
		for _, id := range off[:min(3, len(off))] {
			list = append(list, fmt.Sprintf("%s ×%d", id, r.Times(id)))
		}
		more := ""
		if len(off) > 3 {
			more = fmt.Sprintf(", and %d more", len(off)-3)
		}
		return fmt.Sprintf("%s processed more than once (%s) ✗ NOT IDEMPOTENT: %s%s%s", counted(j.Offenders, "event", "events"), counted(j.Extra, "extra side effect", "extra side effects"), strings.Join(list, ", "), more, missingWords(j)) + fanOutWords(r)
	}
	if j.Reason == ReasonModelled {
		return w.unknown(r, j)
	}
	if j.Reason == ReasonNoOracle && j.Duplicates > 0 {
		return "duplicates reached your handler; effects UNKNOWN — " + w.noOracle() + " for a verdict"
	}
	return "UNKNOWN — " + w.unknown(r, j)
}

// missingWords says, beside a verdict that stands, how many accepted
// events the oracle does not report; "" when it reports them all.
func missingWords(j Judgement) string {
	if j.Missing == 0 {
		return ""
	}
	return fmt.Sprintf("; the effects oracle does not report %d of the %s your handler answered 2xx, so %s not checked", j.Missing, counted(j.Accepted, "event", "events"), plural(j.Missing, "it was", "they were"))
}

// noOracle says there is no effects oracle and what to do about it: the
// one sentence of the verdict, the gate and a command refusing the gate
// (GatePlan.Refusals).
func (w words) noOracle() string {
	return `retrysim cannot see your handler's side effects; serve {"<dedup id>": <times processed>} (or a query of the database they are in: docs/oracle.md) and pass ` + w.of(simulator.SettingEffects)
}

// unknown says why there is no verdict, and what to do about it.
func (w words) unknown(r *Summary, j Judgement) string {
	switch j.Reason {
	case ReasonModelled:
		return "none to judge: this run only modelled your handler and sent nothing, so no side effect happened"
	case ReasonOracleError:
		if f := r.RestartFailed; f != nil {
			// The handler was down when its effects were read: an oracle
			// it serves went with it, and its failure says nothing of its
			// shape. (An oracle apart from the handler, a database, may
			// have failed for a reason of its own: the error says.)
			return fmt.Sprintf("the effects oracle did not answer (%s); it was read after the handler could not be restarted at +%s, and an oracle the handler serves was down with it", r.EffectsProblem, dur(f.At))
		}
		return fmt.Sprintf("the effects oracle did not answer as expected (%s): it must answer 200 with %s", r.EffectsProblem, oracleShape(r))
	case ReasonOracleBlind:
		return fmt.Sprintf("the effects oracle knows none of the %d delivered %s (those your handler answered 2xx): it must answer %s",
			j.Accepted, plural(j.Accepted, "event", "events"), oracleShape(r))
	case ReasonNoOracle:
		return w.noOracle() + " for a verdict"
	case ReasonUnsettled:
		if j.Pending > 0 {
			return fmt.Sprintf("your handler still reported %s pending when retrysim stopped reading its effects, %s after the last attempt (the settle limit, or an interrupt), so the counts cannot be vouched for: give it longer (%s)",
				counted(j.Pending, "job", "jobs"), secondsWords(r.SettleWait), w.of(simulator.SettingSettleLimit))
		}
		return fmt.Sprintf("your handler's effects were still changing when retrysim stopped reading them, %s after the last attempt (the settle limit, or an interrupt): it may still have been at work, so the counts cannot be vouched for",
			secondsWords(r.SettleWait))
	case ReasonPartialCoverage:
		return fmt.Sprintf("the effects oracle does not report %d of the %s your handler answered 2xx (no id, or not processed during this run), so %s not checked: it must answer %s",
			j.Missing, counted(j.Accepted, "event", "events"), plural(j.Missing, "it was", "they were"), oracleShape(r))
	}
	return w.untested(r, j)
}

// untested says why the run put idempotency to no test.
func (w words) untested(r *Summary, j Judgement) string {
	switch j.Reason {
	case ReasonNothingReached:
		return "no delivery reached your handler, so nothing was processed and idempotency was not tested"
	case ReasonNoneAccepted:
		s := fmt.Sprintf("your handler accepted none of the %s (%s): nothing was processed, so idempotency was not tested",
			deliveries(r), answerList(r))
		if r.RefusedArrivals < r.HandlerArrivals {
			s = fmt.Sprintf("your handler answered none of the %s with 2xx (%s): it accepted nothing, so idempotency was not tested",
				deliveries(r), answerList(r))
		}
		if h := w.refusalHint(r); h != "" {
			s += " — " + h
		}
		return s
	case ReasonNoDuplicate:
		// Nothing was delivered twice, so nothing was put to the test.
		return "every event processed at most once, but no duplicate reached your handler, so this run did not test idempotency (" + w.lostAnswersHint(r) + ")"
	}
	return ""
}

// lostAnswersHint says how to get a duplicate to the handler, from what
// the run saw (never from the scenario's name, which a file may reuse):
// more events when answers were lost yet no retry reached the handler;
// else a scenario with lost answers, given enough events to lose one.
func (w words) lostAnswersHint(r *Summary) string {
	if n := r.Outcomes[simulator.LostResponse]; n > 0 {
		return fmt.Sprintf("%s lost, but no retry reached your handler: more events give lost answers more chances: raise %s", counted(n, "answer was", "answers were"), w.of(simulator.SettingEvents))
	}
	return "no answer was lost in this run; a scenario with lost answers does, given enough events: " + w.of(simulator.SettingFlakyScenario)
}

// oracleShape is what the oracle must answer, naming the provider's dedup
// id and one delivered event's id as an example.
func oracleShape(r *Summary) string {
	s := `{"<dedup id>": <times processed>}`
	if r.DedupField != "" {
		s += fmt.Sprintf(" keyed by %s's %s", r.Provider, r.DedupField)
	}
	if r.sampleDelivered != "" {
		s += fmt.Sprintf(`, e.g. {"%s": 1}`, r.sampleDelivered)
	}
	return s
}
