package simulator

import (
	"context"

	"github.com/retrysim/retrysim/scenarios"
)

// attacksBeside: requests the handler must reject are sent beside the
// attempt (bad-signature, missing-signature, stale-timestamp, replayed,
// tampered-body; see attack.go). They change nothing about the attempt
// itself; a dry run sends none.
type attacksBeside struct{ noEffect }

func (attacksBeside) beside(ctx context.Context, e *engine, d due, st eventRef, act *scenarios.Action, o *outcome) {
	if len(act.Attacks) > 0 && !e.cfg.DryRun {
		o.attacks = e.attacksOn(ctx, d, st, act.Attacks)
	}
}

// attacksOn sends the attacks beside attempt d. (Apart from beside, which
// every attempt calls: d, taken by address here, stays off the heap for
// attempts without attacks.)
func (e *engine) attacksOn(ctx context.Context, d due, st eventRef, attacks []scenarios.Attack) []attackResult {
	return e.attacks(ctx, &d, st, attacks)
}
