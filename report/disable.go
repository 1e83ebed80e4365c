package report

import (
	"github.com/retrysim/retrysim/policies"
	"github.com/retrysim/retrysim/simulator"
)

// disableForm is what disabled a run's endpoint, as a kind: every writer
// words a disable from it (words_disable.go), never from one legacy field.
type disableForm int

const (
	// notDisabled: the endpoint was not disabled, or the stream does not
	// say how.
	notDisabled disableForm = iota
	// disabledConsecutive: the policy's rule of consecutive failures
	// (DisableRule.ConsecutiveFailures, within DisableRule.Within).
	disabledConsecutive
	// disabledRate: the policy's failure-rate rule (Slack: over 95 % of
	// the attempts within 1 h failed).
	disabledRate
	// disabledFailingFor: the policy's rule of failing for a span (Svix:
	// every attempt failed for 5 days).
	disabledFailingFor
	// disabledByAnswer: the handler's answer matched a stop rule that
	// disables the endpoint (a Standard Webhooks 410).
	disabledByAnswer
	// disabledAtStart: the provider never enabled or removed the endpoint
	// before the first event (a handshake or a signature probe failed);
	// Summary.DisabledBy says how.
	disabledAtStart
)

// disabledForm says what disabled the endpoint, from the typed cause the
// end record carries and the policy's rule from the run record. A stream
// older than the cause is read as the policy's rule when it names one.
func (r *Summary) disabledForm() disableForm {
	if r.DisabledAt.IsZero() && r.LostToDisable == 0 {
		return notDisabled
	}
	switch r.DisabledCause {
	case simulator.DisabledBySignal:
		return disabledByAnswer
	case simulator.DisabledByProbe, simulator.DisabledByHandshake:
		return disabledAtStart
	}
	return ruleForm(r.DisableRule)
}

// ruleForm is the form of a policy's disable rule: exactly one is set.
func ruleForm(d policies.DisableRule) disableForm {
	switch {
	case d.FailureRate > 0:
		return disabledRate
	case d.FailingFor > 0:
		return disabledFailingFor
	case d.ConsecutiveFailures > 0:
		return disabledConsecutive
	}
	return notDisabled
}
