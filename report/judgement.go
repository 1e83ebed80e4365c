package report

import "time"

// A verdict is decided here, once, as a value: the verdict, a reason code
// and the figures a sentence about it needs. The sentences are written
// from that value (words_verdict.go, words_gates.go); nothing decides by
// looking at a sentence.

// Reason says why a run's idempotency verdict is what it is.
type Reason string

// The reasons of an idempotency verdict.
const (
	// ReasonProcessedOnce: IDEMPOTENT, every accepted event reported and
	// processed at most once, with duplicates having reached the handler.
	ReasonProcessedOnce Reason = "processed_once"
	// ReasonDuplicateEffects: NOT IDEMPOTENT, events processed more than
	// once (Judgement.Offenders, Judgement.Extra).
	ReasonDuplicateEffects Reason = "duplicate_effects"
	// ReasonModelled: the run only modelled the handler; nothing was sent.
	ReasonModelled Reason = "modelled"
	// ReasonNoOracle: no effects oracle was given.
	ReasonNoOracle Reason = "no_oracle"
	// ReasonOracleError: the oracle did not answer as expected.
	ReasonOracleError Reason = "oracle_error"
	// ReasonOracleBlind: the oracle answered but knows none of the
	// events the handler accepted.
	ReasonOracleBlind Reason = "oracle_blind"
	// ReasonNothingReached: no delivery reached the handler.
	ReasonNothingReached Reason = "nothing_reached"
	// ReasonNoneAccepted: deliveries reached the handler, it answered none
	// of them 2xx.
	ReasonNoneAccepted Reason = "none_accepted"
	// ReasonUnsettled: the oracle's counts were still changing when
	// retrysim stopped reading them (Judgement.SettleLimit).
	ReasonUnsettled Reason = "unsettled"
	// ReasonPartialCoverage: the oracle does not report some of the events
	// the handler accepted (Judgement.Missing of Judgement.Accepted).
	ReasonPartialCoverage Reason = "partial_coverage"
	// ReasonNoDuplicate: no duplicate reached the handler after it took an
	// event in, so nothing was tested.
	ReasonNoDuplicate Reason = "no_duplicate"
)

// Caveat says why a verdict may miss effects, though it stands.
type Caveat string

// The caveats of a verdict.
const (
	CaveatNone Caveat = ""
	// CaveatHandlersRunning: in-process handler calls were still running
	// when the effects were read (Judgement.Running).
	CaveatHandlersRunning Caveat = "handlers_running"
	// CaveatUnsettled: the effects were still changing (a NOT IDEMPOTENT
	// verdict stands; more may have come).
	CaveatUnsettled Caveat = "unsettled"
	// CaveatSettledOnQuiet: the handler worked after it answered, its
	// oracle reports no pending work, and the effects were taken as settled
	// after a quiet window alone (Judgement.Quiet): slower work would be
	// missed.
	CaveatSettledOnQuiet Caveat = "settled_on_quiet"
)

// Judgement is a run's idempotency verdict as a value.
type Judgement struct {
	// Verdict is Idempotent, NotIdempotent or NoVerdict.
	Verdict Verdict
	Reason  Reason
	Caveat  Caveat
	// Offenders counts the events processed more than once; Extra the
	// side effects beyond the first of each.
	Offenders, Extra int
	// Accepted counts the events the handler answered 2xx; Missing those
	// of them the oracle does not report.
	Accepted, Missing int
	// Duplicates counts the duplicate arrivals.
	Duplicates int
	// Running counts the handler calls still running at the end.
	Running int
	// Pending is the work the oracle still reported queued when retrysim
	// stopped reading it; Quiet the quiet window the effects settled on
	// (CaveatSettledOnQuiet).
	Pending int
	Quiet   time.Duration
}

// Untested reports whether the run put idempotency to no test: nothing
// reached the handler, it accepted nothing, or no duplicate came.
func (j Judgement) Untested() bool {
	switch j.Reason {
	case ReasonNothingReached, ReasonNoneAccepted, ReasonNoDuplicate:
		return true
	}
	return false
}

// Judge decides the run's idempotency verdict.
//
// IDEMPOTENT needs a test that happened and an oracle that vouches for
// all of it: a duplicate reached the handler after it had taken its event
// in, the oracle reports every event the handler accepted, and its counts
// had settled. Effects proven twice are NOT IDEMPOTENT whatever else is
// missing. Anything else is UNKNOWN, with the reason.
func (r *Summary) Judge() Judgement {
	j := Judgement{Verdict: NoVerdict, Accepted: r.HandlerDelivered, Duplicates: r.DuplicateArrivals, Running: r.HandlersRunning,
		Pending: r.EffectsPending, Quiet: r.SettledOnQuiet}
	if r.EffectsKnown && !r.OracleBlind() && r.EffectsMatched < r.HandlerDelivered {
		j.Missing = r.HandlerDelivered - r.EffectsMatched
	}
	switch {
	case r.Modelled():
		j.Reason = ReasonModelled
		return j
	case r.EffectsProblem != "":
		j.Reason = ReasonOracleError
		return j
	case !r.EffectsKnown:
		j.Reason = ReasonNoOracle
		return j
	case r.OracleBlind():
		j.Reason = ReasonOracleBlind
		return j
	}
	if off := r.Offenders(); len(off) > 0 {
		j.Verdict, j.Reason, j.Offenders = NotIdempotent, ReasonDuplicateEffects, len(off)
		for _, id := range off {
			j.Extra += r.extraEffects(id)
		}
		j.Caveat = r.caveat(true)
		return j
	}
	switch {
	case r.HandlerArrivals == 0:
		j.Reason = ReasonNothingReached
	case r.HandlerDelivered == 0:
		j.Reason = ReasonNoneAccepted
	case r.EffectsUnsettled:
		j.Reason = ReasonUnsettled
	case j.Missing > 0:
		j.Reason = ReasonPartialCoverage
	case r.DuplicateArrivals == 0:
		j.Reason = ReasonNoDuplicate
	default:
		j.Verdict, j.Reason = Idempotent, ReasonProcessedOnce
		j.Caveat = r.caveat(false)
	}
	return j
}

// caveat says why a verdict that stands may miss effects.
func (r *Summary) caveat(proven bool) Caveat {
	switch {
	case r.HandlersRunning > 0:
		return CaveatHandlersRunning
	case proven && r.EffectsUnsettled:
		return CaveatUnsettled
	case !proven && r.SettledOnQuiet > 0:
		return CaveatSettledOnQuiet
	}
	return CaveatNone
}

// Offender is an event the handler processed more than once.
type Offender struct {
	ID    string `json:"id"`
	Times int    `json:"times"`
}

// OffenderCounts lists the events processed more than once with how many
// times each was, by id; none when the verdict is not NotIdempotent (an
// oracle that knows none of the delivered events names no offender).
func (r *Summary) OffenderCounts() []Offender {
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
