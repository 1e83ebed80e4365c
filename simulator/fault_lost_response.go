package simulator

import (
	"time"

	"github.com/retrysim/retrysim/scenarios"
)

// lostAnswer: the handler answered but the answer was lost on the way back
// (lost-response): the handler did the work, the provider will deliver
// again.
type lostAnswer struct{ noEffect }

func (lostAnswer) answered(_ *engine, act *scenarios.Action, _ time.Duration, o *outcome) bool {
	if !act.LoseResponse {
		return false
	}
	o.unanswered(LostResponse, "the answer was lost on the way back (injected)")
	return true
}
