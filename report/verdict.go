package report

import (
	"fmt"
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
		return fmt.Sprintf("every event processed at most once ✓ IDEMPOTENT (%d duplicate arrivals absorbed)%s", r.DuplicateArrivals, r.oracleMissing())
	case NotIdempotent:
		off := r.Offenders()
		extra := 0
		for _, id := range off {
			extra += r.Effects[id] - 1
		}
		list := make([]string, 0, 3)
		for _, id := range off[:min(3, len(off))] {
			list = append(list, fmt.Sprintf("%s ×%d", clipID(id), r.Effects[id]))
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
		return "every event processed at most once, but no duplicate reached your handler, so this run did not test idempotency (a scenario with lost answers does: --scenario flaky-network)"
	}
	return ""
}

// clipID shortens a long id for a line of text.
func clipID(id string) string {
	if len(id) <= 14 {
		return id
	}
	return id[:13] + "…"
}
