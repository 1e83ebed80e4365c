package simulator

import "github.com/retrysim/retrysim/scenarios"

// heldBack: the provider holds the attempt back (Effect.Hold), in its own
// outage or slow pipeline, and sends it later: nothing is sent now, no
// record is written, and the same attempt is due again after the hold
// (decide queues it), when the faults are asked again. The provider holds
// an attempt back once: one sent late (Effect.Late) goes now, whatever
// another fault's window would hold, so composed holds cannot chain.
type heldBack struct{ noEffect }

func (heldBack) before(_ *engine, act *scenarios.Action, o *outcome) bool {
	if act.Hold <= 0 || act.Late {
		return false
	}
	o.held = act.Hold
	return true
}

// droppedByProvider: the provider never sends the attempt and gives the
// event up (Effect.ProviderDrop): nothing is sent, no attempt is recorded,
// and the event ends lost (FateDropped) without your handler having
// failed.
type droppedByProvider struct{ noEffect }

func (droppedByProvider) before(_ *engine, act *scenarios.Action, o *outcome) bool {
	if !act.ProviderDrop {
		return false
	}
	o.providerDropped = true
	return true
}
