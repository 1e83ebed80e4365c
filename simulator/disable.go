package simulator

import (
	"time"

	"github.com/retrysim/retrysim/policies"
)

// disabler applies a policy's endpoint-disable rule across events: it counts
// consecutive failed attempts, in virtual-time order, and remembers when the
// streak began within the rule's window.
type disabler struct {
	rule  *policies.DisableRule
	times []time.Time // the current streak's failure times, oldest first (at most rule.ConsecutiveFailures)
}

// room is how many more attempts can be decided before the rule could fire:
// the engine never sends more than this in one wave, so no attempt is sent
// after the moment the endpoint is disabled.
func (d *disabler) room() int {
	if d.rule == nil {
		return int(^uint(0) >> 1)
	}
	return max(1, d.rule.ConsecutiveFailures-len(d.times))
}

// record notes an attempt's result and reports whether the endpoint is now
// disabled.
func (d *disabler) record(at time.Time, failed bool) bool {
	if d.rule == nil {
		return false
	}
	if !failed {
		d.times = d.times[:0]
		return false
	}
	if len(d.times) == d.rule.ConsecutiveFailures {
		d.times = append(d.times[:0], d.times[1:]...)
	}
	d.times = append(d.times, at)
	if len(d.times) < d.rule.ConsecutiveFailures {
		return false
	}
	return d.rule.Within == 0 || at.Sub(d.times[0]) <= d.rule.Within.D()
}
