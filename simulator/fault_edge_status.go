package simulator

import (
	"fmt"

	"github.com/retrysim/retrysim/scenarios"
)

// edgeAnswer: a proxy in front of the handler answers with an error status
// (edge-error, fail-attempts with a status), and the request never reaches
// the handler.
type edgeAnswer struct{ noEffect }

func (edgeAnswer) before(_ *engine, act *scenarios.Action, o *outcome) bool {
	if act.EdgeStatus == 0 {
		return false
	}
	o.outcome, o.status = HTTPError, act.EdgeStatus
	o.err = fmt.Sprintf("%d from a proxy in front of the handler (injected)", act.EdgeStatus)
	return true
}
