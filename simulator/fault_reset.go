package simulator

import (
	"time"

	"github.com/retrysim/retrysim/scenarios"
)

// resetAfterSend: the connection is reset after the request was sent and
// before the answer arrived (reset): the handler was reached and did its
// work, the provider sees a failed connection.
type resetAfterSend struct{ noEffect }

func (resetAfterSend) answered(_ *engine, act *scenarios.Action, _ time.Duration, o *outcome) bool {
	if !act.Reset {
		return false
	}
	o.unanswered(ConnectionFailed, "connection reset after the request was sent, before the answer (injected)")
	return true
}
