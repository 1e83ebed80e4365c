package simulator

import "github.com/retrysim/retrysim/scenarios"

// refused: the connection is refused before the request is sent
// (drop-request, outage, flapping, fail-attempts, reorder holding an
// event back).
type refused struct{ noEffect }

func (refused) before(_ *engine, act *scenarios.Action, o *outcome) bool {
	if !act.Drop {
		return false
	}
	o.outcome, o.err = ConnectionFailed, "connection refused (injected)"
	return true
}
