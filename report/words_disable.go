package report

import (
	"fmt"
	"strconv"

	"github.com/retrysim/retrysim/simulator"
)

// The words of an endpoint disable, one function per place a report says
// it, each worded from the disable's form (disable.go) for every rule form.

// disabledWords says what disabled the endpoint, for the line that reports
// the disable ("ENDPOINT DISABLED at +36m9s: 19 consecutive failures within
// 2d").
func disabledWords(r *Summary) string {
	switch {
	case r.DisabledCause == simulator.DisabledByRule && ruleForm(r.DisableRule) != notDisabled:
		return r.DisableRule.Condition()
	case r.DisabledBy != "":
		return r.DisabledBy
	}
	s := fmt.Sprintf("%d consecutive failures", r.DisableAfter)
	if r.DisableWithin > 0 {
		s += " within " + dur(r.DisableWithin)
	}
	return s
}

// disabledBecause says why the events lost to the disable were lost, as
// the clause after "because": "shopify disabled the endpoint after 19
// failures in a row". "" when the run says nothing about it.
func disabledBecause(r *Summary) string {
	d := r.DisableRule
	switch r.disabledForm() {
	case disabledConsecutive:
		return fmt.Sprintf("%s disabled the endpoint after %s in a row", r.Provider, counted(d.ConsecutiveFailures, "failure", "failures"))
	case disabledRate:
		return fmt.Sprintf("%s disabled the endpoint when over %s of its attempts within %s had failed", r.Provider, percent(d.FailureRate), d.Within)
	case disabledFailingFor:
		return fmt.Sprintf("%s disabled the endpoint after every attempt had failed for %s", r.Provider, d.FailingFor)
	case disabledByAnswer:
		return fmt.Sprintf("your handler's answer disabled the endpoint (%s)", r.DisabledBy)
	case disabledAtStart:
		return r.DisabledBy
	}
	return ""
}

// disableAdvice is the line of "what to change" for events lost to the
// disable; "" when there were none, or the disable has advice of its own
// (a failed handshake or probe).
func disableAdvice(r *Summary) string {
	if r.LostToDisable == 0 {
		return ""
	}
	lost := counted(r.LostToDisable, "event was", "events were")
	d := r.DisableRule
	switch r.disabledForm() {
	case disabledConsecutive:
		return fmt.Sprintf("%s lost when the provider disabled the endpoint: alert on failing deliveries long before %s in a row", lost, counted(d.ConsecutiveFailures, "failure", "failures"))
	case disabledRate:
		return fmt.Sprintf("%s lost when the provider disabled the endpoint: alert on failing deliveries long before over %s of them within %s fail", lost, percent(d.FailureRate), d.Within)
	case disabledFailingFor:
		return fmt.Sprintf("%s lost when the provider disabled the endpoint: alert on failing deliveries long before they have failed for %s", lost, d.FailingFor)
	case disabledByAnswer:
		return fmt.Sprintf("%s lost when your handler's answer disabled the endpoint (%s): answer that way only when the provider should stop sending to it for good", lost, r.DisabledBy)
	}
	return ""
}

// percent writes a share as a percentage: 0.95 is "95 %".
func percent(share float64) string {
	return strconv.FormatFloat(share*100, 'f', -1, 64) + " %"
}
