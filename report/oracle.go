package report

import (
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
func (r *runAgg) noteKeyed(id string) {
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
func (r *runAgg) matchEffects() {
	r.EffectsMatched = 0
	if !r.EffectsKnown || len(r.keyed) == 0 {
		return
	}
	slices.Sort(r.keyed)
	for id := range r.Effects {
		if r.Times(id) <= 0 || r.attacks.ids[id] {
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
// its answer cannot vouch for the handler, so there is no verdict (NoVerdict).
func (r *Summary) OracleBlind() bool {
	return r.EffectsKnown && r.HandlerDelivered > 0 && r.EffectsMatched == 0
}

// Modelled reports whether the run only modelled the handler (a dry run,
// or `retrysim ttl`): nothing was sent, so there are no side effects. The
// run record says so (see upgrade for streams written before it did).
func (r *Summary) Modelled() bool { return r.DryRun }
