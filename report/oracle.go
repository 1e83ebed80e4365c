package report

import (
	"fmt"
	"hash/fnv"
	"slices"
	"strings"
)

// An oracle that answers for none of the events the handler accepted says
// nothing about them: a stub answering {}, or counts keyed by something
// other than the provider's dedup id (the handler's own order id, say).
// Judging such a run IDEMPOTENT would pass a CI gate on a handler that was
// never looked at, so the run compares the oracle's ids with the events
// the handler answered 2xx.

// noteKeyed remembers an event the handler answered 2xx for the first
// time: 8 bytes for each such event. A modelled run (dry run) sends
// nothing and keeps nothing.
func (r *Run) noteKeyed(id string) {
	if r.Modelled() {
		return
	}
	r.HandlerDelivered++
	if r.sampleDelivered == "" {
		r.sampleDelivered = strings.Clone(id)
	}
	r.keyed = append(r.keyed, idHash(id))
}

// matchEffects counts the delivered events the oracle reports processed at
// least once, once the run has ended with its oracle's answer.
func (r *Run) matchEffects() {
	r.EffectsMatched = 0
	if !r.EffectsKnown || len(r.keyed) == 0 {
		return
	}
	slices.Sort(r.keyed)
	for id := range r.Effects {
		if r.Times(id) <= 0 || r.attackIDs[id] {
			continue
		}
		if _, ok := slices.BinarySearch(r.keyed, idHash(id)); ok {
			r.EffectsMatched++
		}
	}
	r.EffectsMatched = min(r.EffectsMatched, r.HandlerDelivered)
}

func idHash(id string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(id))
	return h.Sum64()
}

// OracleBlind reports whether the effects oracle answered but knows none of
// the events the handler accepted (no id of theirs, or all counted 0):
// its answer cannot vouch for the handler, so the verdict is Unknown.
func (r *Run) OracleBlind() bool {
	return r.EffectsKnown && r.HandlerDelivered > 0 && r.EffectsMatched == 0
}

// Modelled reports whether the run only modelled the handler (a dry run,
// or `retrysim ttl`): nothing was sent, so there are no side effects. The
// run record says so; a stream written before it did is known by its
// target's name.
func (r *Run) Modelled() bool { return r.DryRun || strings.HasPrefix(r.Target, "model (") }

// oracleShape is what the oracle must answer, naming the provider's dedup
// id and one delivered event's id as an example.
func (r *Run) oracleShape() string {
	s := `{"<dedup id>": <times processed>}`
	if r.DedupField != "" {
		s += fmt.Sprintf(" keyed by %s's %s", r.Provider, r.DedupField)
	}
	if r.sampleDelivered != "" {
		s += fmt.Sprintf(`, e.g. {"%s": 1}`, r.sampleDelivered)
	}
	return s
}

// oracleProblem says what went wrong with the oracle, from the run's
// recorded error (streams written before the error was worded once may
// repeat the "effects oracle: " prefix).
func oracleProblem(msg string) string {
	for strings.HasPrefix(msg, "effects oracle: ") {
		msg = strings.TrimPrefix(msg, "effects oracle: ")
	}
	return "the effects oracle did not answer as expected (" + msg + ")"
}

// unknownLine says why there is no verdict, and what to do about it.
func (r *Run) unknownLine(j Judgement) string {
	switch j.Reason {
	case ReasonModelled:
		return "none to judge: this run only modelled your handler and sent nothing, so no side effect happened"
	case ReasonOracleError:
		return fmt.Sprintf("UNKNOWN — %s: it must answer 200 with %s", oracleProblem(r.EffectsError), r.oracleShape())
	case ReasonOracleBlind:
		return fmt.Sprintf("UNKNOWN — the effects oracle knows none of the %d delivered %s (those your handler answered 2xx): it must answer %s",
			j.Accepted, plural(j.Accepted, "event", "events"), r.oracleShape())
	case ReasonNoOracle:
		msg := "UNKNOWN — retrysim cannot see your handler's side effects"
		if j.Duplicates > 0 {
			return fmt.Sprintf("duplicates reached your handler; effects %s. Serve {\"<dedup id>\": <times processed>} and pass --effects-url to get a verdict", msg)
		}
		return msg + "; pass --effects-url for a verdict"
	case ReasonUnsettled:
		return fmt.Sprintf("UNKNOWN — your handler's effects were still changing when retrysim stopped reading them, %s after the last attempt (the settle limit, or an interrupt): it may still have been at work, so the counts cannot be vouched for",
			secondsWords(r.SettleWait))
	case ReasonPartialCoverage:
		return fmt.Sprintf("UNKNOWN — the effects oracle does not report %d of the %s your handler answered 2xx (no id, or not processed during this run), so %s not checked: it must answer %s",
			j.Missing, counted(j.Accepted, "event", "events"), plural(j.Missing, "it was", "they were"), r.oracleShape())
	}
	return "UNKNOWN — " + r.untestedWords(j)
}
