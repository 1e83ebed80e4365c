package report

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
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
		out[i] = Offender{ID: id, Times: r.Effects[id]}
	}
	return out
}

// VerdictLine says the run's idempotency verdict in one line, as every
// report format shows it: IDEMPOTENT with the duplicates absorbed, NOT
// IDEMPOTENT with the offending ids and counts, or UNKNOWN with what the
// user can do to get a verdict.
func (r *Run) VerdictLine() string {
	line := r.verdictLine()
	if c := r.EffectsCaveat(); c != "" {
		line += "; " + c
	}
	return line
}

// EffectsCaveat says, when the effects were read while the handler may
// still have been at work, why the verdict may miss effects; "" otherwise.
func (r *Run) EffectsCaveat() string {
	if r.Verdict() == Unknown {
		return "" // no verdict to qualify
	}
	switch {
	case r.HandlersRunning > 0:
		return fmt.Sprintf("%d handler %s still running when the effects were read; the verdict may miss their effects",
			r.HandlersRunning, plural(r.HandlersRunning, "call was", "calls were"))
	case r.EffectsUnsettled:
		return "your handler may still have been at work on requests it never answered when retrysim stopped reading the effects (they were still changing, or the run was interrupted); the verdict may miss their effects"
	}
	return ""
}

func (r *Run) verdictLine() string {
	switch r.Verdict() {
	case Idempotent:
		return fmt.Sprintf("every event processed at most once ✓ IDEMPOTENT (%s absorbed)%s", counted(r.DuplicateArrivals, "duplicate arrival", "duplicate arrivals"), r.oracleMissing())
	case NotIdempotent:
		off := r.Offenders()
		extra := 0
		for _, id := range off {
			extra += r.Effects[id] - 1
		}
		// The worst first, with their full ids: people copy them.
		slices.SortStableFunc(off, func(a, b string) int { return cmp.Compare(r.Effects[b], r.Effects[a]) })
		list := make([]string, 0, 3)
		for _, id := range off[:min(3, len(off))] {
			list = append(list, fmt.Sprintf("%s ×%d", id, r.Effects[id]))
		}
		more := ""
		if len(off) > 3 {
			more = fmt.Sprintf(", and %d more", len(off)-3)
		}
		return fmt.Sprintf("%s processed more than once (%d extra side effects) ✗ NOT IDEMPOTENT: %s%s%s", fmt.Sprintf("%d %s", len(off), plural(len(off), "event", "events")), extra, strings.Join(list, ", "), more, r.oracleMissing())
	}
	return r.unknownLine()
}

// Untested says why the run put the handler's idempotency to no test, ""
// when it did: no delivery reached the handler, it accepted none (a wrong
// secret or path), or no duplicate reached it after it took an event in.
// A modelled run sends nothing and is judged by Verdict alone.
func (r *Run) Untested() string {
	switch {
	case r.Modelled():
		return ""
	case r.HandlerArrivals == 0:
		return "no delivery reached your handler, so nothing was processed and idempotency was not tested"
	case r.HandlerDelivered == 0:
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
	case r.DuplicateArrivals == 0:
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
