package report

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"
)

// Offender is an event the handler processed more than once.
type Offender struct {
	ID    string `json:"id"`
	Times int    `json:"times"`
}

// OffenderCounts lists the events processed more than once with how many
// times each was, by id; none when the verdict is not NotIdempotent (an
// oracle that knows none of the delivered events names no offender).
func (r *Run) OffenderCounts() []Offender {
	if r.Verdict() != NotIdempotent {
		return []Offender{}
	}
	ids := r.Offenders()
	out := make([]Offender, len(ids))
	for i, id := range ids {
		out[i] = Offender{ID: id, Times: r.Times(id)}
	}
	return out
}

// VerdictLine says the run's idempotency verdict in one line, as every
// report format shows it: IDEMPOTENT with the duplicates absorbed, NOT
// IDEMPOTENT with the offending ids and counts, or UNKNOWN with what the
// user can do to get a verdict; and how long the effects took to settle.
func (r *Run) VerdictLine() string {
	j := r.Judge()
	line := r.verdictLine(j)
	if c := r.caveatWords(j); c != "" {
		line += "; " + c
	}
	if j.Reason == ReasonUnsettled {
		return line // it says how long already
	}
	return line + r.settleWords()
}

// EffectsCaveat says, when the effects were read while the handler may
// still have been at work, why the verdict may miss effects; "" otherwise
// (and for an UNKNOWN verdict, which has nothing to qualify).
func (r *Run) EffectsCaveat() string { return r.caveatWords(r.Judge()) }

func (r *Run) caveatWords(j Judgement) string {
	switch j.Caveat {
	case CaveatHandlersRunning:
		return fmt.Sprintf("%d handler %s still running when the effects were read; the verdict may miss their effects",
			j.Running, plural(j.Running, "call was", "calls were"))
	case CaveatUnsettled:
		return "your handler's effects were still changing when retrysim stopped reading them (or the run was interrupted); there may be more"
	}
	return ""
}

// settleWords says how long retrysim read the effects of a handler behind a
// URL until they settled; "" when it read them once.
func (r *Run) settleWords() string {
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

func (r *Run) verdictLine(j Judgement) string {
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
		return fmt.Sprintf("%s processed more than once (%d extra side effects) ✗ NOT IDEMPOTENT: %s%s%s", counted(j.Offenders, "event", "events"), j.Extra, strings.Join(list, ", "), more, missingWords(j))
	}
	return r.unknownLine(j)
}

// missingWords says, beside a verdict that stands, how many accepted
// events the oracle does not report; "" when it reports them all.
func missingWords(j Judgement) string {
	if j.Missing == 0 {
		return ""
	}
	return fmt.Sprintf("; the effects oracle does not report %d of the %s your handler answered 2xx, so %s not checked", j.Missing, counted(j.Accepted, "event", "events"), plural(j.Missing, "it was", "they were"))
}

// Untested says why the run put the handler's idempotency to no test, ""
// when it did: no delivery reached the handler, it accepted none (a wrong
// secret or path), or no duplicate reached it after it took an event in.
// A modelled run sends nothing and is judged by Verdict alone.
func (r *Run) Untested() string {
	j := r.Judge()
	if !j.Untested() {
		return ""
	}
	return r.untestedWords(j)
}

func (r *Run) untestedWords(j Judgement) string {
	switch j.Reason {
	case ReasonNothingReached:
		return "no delivery reached your handler, so nothing was processed and idempotency was not tested"
	case ReasonNoneAccepted:
		s := fmt.Sprintf("your handler accepted none of the %s (%s): nothing was processed, so idempotency was not tested",
			r.deliveries(), r.answerList())
		if r.RefusedArrivals < r.HandlerArrivals {
			s = fmt.Sprintf("your handler answered none of the %s with 2xx (%s): it accepted nothing, so idempotency was not tested",
				r.deliveries(), r.answerList())
		}
		if h := r.refusalHint(); h != "" {
			s += " — " + h
		}
		return s
	case ReasonNoDuplicate:
		// Nothing was delivered twice, so nothing was put to the test.
		return "every event processed at most once, but no duplicate reached your handler, so this run did not test idempotency (" + r.lostAnswersHint() + ")"
	}
	return ""
}

// lostAnswersHint says how to get a duplicate to the handler: a scenario
// with lost answers, or more events when the run already had one.
func (r *Run) lostAnswersHint() string {
	if r.Scenario == "flaky-network" {
		return "more events give the lost answers of flaky-network more chances: raise --events"
	}
	return "a scenario with lost answers does: --scenario flaky-network"
}
