package simulator

import (
	"fmt"
	"strings"
	"time"

	"github.com/retrysim/retrysim/policies"
)

// classify maps a status the provider received to an outcome.
func classify(status int) Outcome {
	switch {
	case policies.Is2xx(status):
		return Delivered
	case policies.Is3xx(status):
		return Redirect
	default:
		return HTTPError
	}
}

// slackReason is Slack's X-Slack-Retry-Reason for a failed attempt o.
func slackReason(o *outcome) string {
	switch o.outcome {
	case Timeout, LostResponse:
		return "http_timeout"
	case HTTPError:
		return "http_error"
	case Redirect:
		if o.redirectRefused != "" {
			// A redirect Slack follows (it follows two), to where
			// retrysim refused to go: Slack would have gone there, and
			// what it met there is not known. too_many_redirects is
			// Slack's word for more than two, which this was not.
			return "unknown_error"
		}
		return "too_many_redirects"
	case ConnectionFailed:
		return "connection_failed"
	}
	// InvalidResponse: Slack names no reason for an answer that is not
	// HTTP; it has one for what it cannot name.
	return "unknown_error"
}

// resendReason is Slack's X-Slack-Retry-Reason for a replay's send after
// one that came to o. Slack sends again only after a failure it saw:
// a send the handler answered 2xx is sent again as if that answer never
// reached Slack within its timeout, as run's lost-response fault has it
// (http_timeout), not for a reason Slack cannot name.
func resendReason(o *outcome) string {
	if !o.outcome.Failed() {
		return slackReason(&outcome{outcome: LostResponse})
	}
	return slackReason(o)
}

// judge applies the policy's status semantics to an answer: which statuses
// count as delivered, stop signals, Retry-After and which failures are
// retried. It may change o's outcome and writes what follows in v, which
// must be zero. (Written through a pointer rather than returned: a
// returned verdict, its flags stored a byte at a time and read back a word
// at a time, stalled every model-run attempt.)
func (e *engine) judge(o *outcome, v *verdict) {
	p := &e.cfg.Policy
	countDelivered(o, p)
	if !o.outcome.Failed() {
		return
	}
	if o.status != 0 && len(p.Stop) > 0 { // no answer, no stop signal
		if rule, ok := p.StopSignal(o.status, o.header); ok {
			if rule.Disable {
				v.disable = true
				v.signal = "endpoint disabled by the answer " + rule.String()
			} else {
				v.stop = true
				v.signal = "retries stopped by the answer " + rule.String()
			}
			return
		}
	}
	if !p.Retried(policies.FailureClass(o.status, o.reached)) {
		v.stop = true
		v.noRetry = true
		v.signal = fmt.Sprintf("%s does not retry this failure (%s; retries on: %s)", p.Name, policies.FailureClass(o.status, o.reached), strings.Join(p.RetryOn, ","))
		return
	}
	if o.header == nil {
		return // no Retry-After (and no need to read the clock)
	}
	if wait, ok := p.RetryAfterWait(o.status, o.header, e.cfg.WallClock.Now()); ok {
		v.retryAfter = wait
	}
}

// countDelivered applies the policy's rule of which statuses count as
// delivered to an answer that came back: a run's attempts and a replay's
// sends alike.
func countDelivered(o *outcome, p *policies.Policy) {
	if o.status != 0 && o.outcome != LostResponse && o.outcome != Timeout {
		countStatus(o, p) // apart, so that this test is inlined into judge
	}
}

func countStatus(o *outcome, p *policies.Policy) {
	switch ok := p.Succeeded(o.status); {
	case ok && o.outcome != Delivered:
		o.outcome = Delivered
	case !ok && o.outcome == Delivered:
		o.outcome = HTTPError
		o.err = fmt.Sprintf("%d is not a status %s counts as delivered", o.status, p.Name)
	}
}

// verdict is what an attempt's answer means for its event and the endpoint.
type verdict struct {
	stop       bool          // no more attempts for this event
	noRetry    bool          // stopped because the policy does not retry this failure
	disable    bool          // the endpoint is disabled at once
	retryAfter time.Duration // the answer's Retry-After, when honoured
	signal     string        // what happened, in words, for the record
}
