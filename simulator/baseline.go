package simulator

import (
	"context"
	"errors"

	"github.com/retrysim/retrysim/policies"
)

// An effects oracle counts everything its handler ever did: the runs
// before this one, and anything else that reached it. So the engine reads
// it before the first attempt (the baseline) and reports, for this run's
// own ids only, what changed during the run. A second run against the same
// handler then starts from nothing, even when it repeats the first one's
// ids (Config.RunID).

// runEffects is what the engine keeps for the effects oracle over a run.
type runEffects struct {
	// before is the oracle's answer before the first attempt; beforeErr
	// why there is none.
	before    map[string]int
	beforeErr error
	// accepted marks, by Seq, the events the handler answered 2xx: one bit
	// each.
	accepted []uint64
	// attacks are the attack requests' own dedup ids, with the event each
	// was sent beside.
	attacks []attackID
}

type attackID struct {
	seq int
	id  string
}

// readBaseline reads the effects oracle before the run.
func (e *engine) readBaseline(ctx context.Context) {
	if e.oracle == nil || e.cfg.DryRun {
		return
	}
	r, err := e.queryEffects(ctx)
	e.fx.before, e.fx.beforeErr = r.Effects, err
}

// noteEffects follows the records that tell which ids the oracle must
// answer for: here the attacks sent (noteAttempt takes the events the
// handler accepted).
func (e *engine) noteEffects(r *Record) {
	if e.oracle == nil {
		return
	}
	// Attempt records do not come here: recordAttempt writes them to the
	// sink itself and calls noteAttempt.
	if r.Kind == KindAttack && r.NotApplicable == "" && r.EventID != "" {
		e.fx.attacks = append(e.fx.attacks, attackID{seq: r.Seq, id: r.EventID})
	}
}

// noteAttempt is noteEffects for an attempt record of event seq that got
// handlerStatus from the handler.
func (e *engine) noteAttempt(seq, handlerStatus int) {
	if e.oracle == nil || !policies.Is2xx(handlerStatus) {
		return
	}
	w := seq / 64
	if w >= len(e.fx.accepted) {
		e.fx.accepted = append(e.fx.accepted, make([]uint64, w+1-len(e.fx.accepted))...)
	}
	e.fx.accepted[w] |= 1 << (seq % 64)
}

func (e *engine) wasAccepted(seq int) bool {
	w := seq / 64
	return w < len(e.fx.accepted) && e.fx.accepted[w]&(1<<(seq%64)) != 0
}

// acceptedIDs lists the dedup ids of the events the handler accepted.
func (e *engine) acceptedIDs() []string {
	var ids []string
	for seq := range e.eventsKnown() {
		if e.wasAccepted(seq) {
			ids = append(ids, e.eventID(seq))
		}
	}
	return ids
}

// counts are how often the handler processed id before the run and during
// it: the oracle's count before, and its count now less that (a count that
// fell, a store emptied by a restart, counts as before only what is left).
func (e *engine) counts(m map[string]int, id string) (before, during int) {
	before = min(e.fx.before[id], m[id])
	return before, m[id] - before
}

// effectsRead is the oracle's answer at the end of a run.
type effectsRead struct {
	settled
	// exact says the oracle was read once, when the handler's work was
	// known to be done.
	exact bool
}

// readRunEffects reads the oracle once the handler's effects have settled
// (see settle.go).
func (e *engine) readRunEffects(ctx context.Context) (effectsRead, error) {
	if e.fx.beforeErr != nil {
		return effectsRead{}, e.fx.beforeErr
	}
	if e.handlerCalls() != nil || e.cfg.DryRun || e.cfg.EffectsExact {
		r, err := e.queryEffects(ctx)
		return effectsRead{settled: settled{m: r.Effects, pending: r.Pending, hasPending: r.HasPending}, exact: true}, err
	}
	accepted := e.acceptedIDs()
	rule := settleRule{clock: e.cfg.WallClock, limit: e.cfg.SettleLimit, quiet: e.cfg.SettleQuiet,
		covered: func(m map[string]int) bool {
			for _, id := range accepted {
				if m[id] <= 0 {
					return false
				}
			}
			return true
		}}
	if !e.lastCutOff.IsZero() {
		rule.notBefore = e.lastCutOff.Add(e.timeout)
	}
	s, err := rule.read(ctx, e.queryEffects)
	return effectsRead{settled: s}, err
}

// emitEffects reads the oracle at the end of the run and writes an effects
// record for each of the run's ids the oracle reports, events in sequence
// order and then attacks, with the counts before and during the run; it
// fills in the end record and the result.
func (e *engine) emitEffects(ctx context.Context, end *Record) error {
	if e.oracle == nil {
		return nil
	}
	read, err := e.readRunEffects(ctx)
	if err != nil {
		end.EffectsProblem = err.Error()
		if ee := (*EffectsError)(nil); errors.As(err, &ee) {
			end.EffectsProblem = ee.Problem
		}
		end.Error = err.Error()
		if !errors.Is(err, ErrEffects) {
			end.Error = ErrEffects.Error() + ": " + end.Error
		}
		return nil
	}
	end.EffectsKnown = true
	end.EffectsUnsettled, e.res.EffectsUnsettled = read.moving, read.moving
	if read.moving && read.hasPending && read.pending > 0 {
		end.EffectsPending, e.res.EffectsPending = read.pending, read.pending
	}
	if !read.exact {
		end.SettleWait = read.waited
		end.SettleLimit = e.cfg.SettleLimit
		end.SettledOnQuiet = read.onQuiet
		e.res.SettledOnQuiet = read.onQuiet
	}
	e.res.SettleWait = read.waited
	e.res.Effects = make(map[string]int, len(read.m))
	emit := func(seq int, id string) error {
		before, n := e.counts(read.m, id)
		if before+n <= 0 {
			return nil
		}
		if n > 0 {
			e.res.Effects[id] = n
		}
		r := e.base
		r.Kind, r.EventID, r.Seq, r.Effects, r.EffectsBefore, r.Time = KindEffects, id, seq, n, before, end.Time
		return e.emit(r)
	}
	for seq := range e.eventsKnown() {
		if len(read.m) == 0 {
			break // nothing to look up
		}
		if err := emit(seq, e.eventID(seq)); err != nil {
			return err
		}
	}
	done := map[string]bool{}
	for _, a := range e.fx.attacks {
		if done[a.id] {
			continue
		}
		done[a.id] = true
		if err := emit(a.seq, a.id); err != nil {
			return err
		}
	}
	return nil
}
