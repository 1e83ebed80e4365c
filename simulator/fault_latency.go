package simulator

import (
	"fmt"
	"time"

	"github.com/retrysim/retrysim/policies"
	"github.com/retrysim/retrysim/scenarios"
)

// lateAnswer: virtual latency is added to the handler's real response time
// (latency; the record's added latency says how much, whatever the
// outcome). Past the provider's timeout the answer comes too late: the
// handler did the work, the provider sees a timeout.
type lateAnswer struct{ noEffect }

func (lateAnswer) answered(e *engine, act *scenarios.Action, latency time.Duration, o *outcome) bool {
	if act.Latency <= 0 || latency+act.Latency <= e.timeout {
		return false
	}
	// Only the injected latency, which the seed decides, is named: the
	// measured time is the record's latency_ms, and an error that carried
	// it would differ between two runs of one seed.
	o.unanswered(Timeout, fmt.Sprintf("the injected latency of %s took the answer past the %s timeout", policies.FormatDuration(act.Latency), policies.FormatDuration(e.timeout)))
	return true
}
