package simulator

import "github.com/retrysim/retrysim/scenarios"

// swallowed: the request goes nowhere and nothing answers (drop-request
// with black_hole): the provider waits out its timeout.
type swallowed struct{ noEffect }

func (swallowed) before(e *engine, act *scenarios.Action, o *outcome) bool {
	if !act.BlackHole {
		return false
	}
	o.outcome, o.err = Timeout, e.blackHoleErr
	return true
}
