package report

// The words of why the provider sent again: each cause of a duplicate
// arrival, the retries after requests that never reached the handler, and
// which of them the scenario injected, so that a fault the run made up is
// never read as the reader's own network failing.

import (
	"fmt"
	"strings"

	"github.com/retrysim/retrysim/simulator"
)

// causeWords explains, for the outcome of an attempt that reached the
// handler, why the provider delivered again.
var causeWords = map[simulator.Outcome]string{
	simulator.LostResponse:     "the answer was lost after your handler answered",
	simulator.Timeout:          "your handler answered after the provider's timeout",
	simulator.HTTPError:        "your handler answered with an error status",
	simulator.InvalidResponse:  "your handler's answer was not valid HTTP",
	simulator.Redirect:         "your endpoint answered with a redirect the provider does not follow",
	simulator.ConnectionFailed: "the connection broke after the request was sent",
	simulator.Delivered:        "the provider delivered an already delivered event again",
}

// causeHead leads the causes: "why the provider sent again", and whether
// the scenario injected the failures behind them: ", all injected by
// flaky-network", ", partly injected by flaky-network".
func causeHead(r *Summary) string {
	const head = "why the provider sent again"
	switch r.ResendsInjected() {
	case InjectedAll:
		return head + ", all injected by " + r.Scenario
	case InjectedSome:
		return head + ", partly injected by " + r.Scenario
	}
	return head
}

// causeLine says why the provider sent again, cause by cause; "" when it
// never did.
func causeLine(r *Summary) string {
	partly := r.ResendsInjected() == InjectedSome
	var parts []string
	for _, o := range outcomeOrder {
		if n := r.Causes[o]; n > 0 {
			parts = append(parts, fmt.Sprintf("%d× %s (%s%s)", n, causeWords[o], o, injectedMark(partly, r.InjectedCauses[o], n)))
		}
	}
	if r.ResentUnreached > 0 {
		parts = append(parts, unreachedWords(r, partly))
	}
	if r.InjectedLateArrivals > 0 {
		parts = append(parts, fmt.Sprintf("%d× the scenario delayed your handler's answer past the provider's timeout (injected latency)", r.InjectedLateArrivals))
	}
	if r.RefusedRedirectArrivals > 0 {
		parts = append(parts, refusedRedirectCause(r))
	}
	if r.UnreachedRedirectArrivals > 0 {
		parts = append(parts, unreachedRedirectCause(r))
	}
	if r.CopyArrivals > 0 {
		parts = append(parts, fmt.Sprintf("%d× the provider sent the same delivery twice at once (duplicate)", r.CopyArrivals))
	}
	if r.ManualArrivals > 0 {
		parts = append(parts, fmt.Sprintf("%d× someone resent the event by hand after the schedule (manual)", r.ManualArrivals))
	}
	if r.ReplayArrivals > 0 {
		parts = append(parts, fmt.Sprintf("%d× a valid request was replayed byte for byte, which no signature can tell from a retry (replayed)", r.ReplayArrivals))
	}
	return strings.Join(parts, "; ")
}

// injectedMark says, when only some of the failures behind the causes
// were injected (partly), which of one cause's n were: ", injected", ", 2
// injected", or nothing for none; the head says it once when all were.
func injectedMark(partly bool, injected, n int) string {
	switch {
	case !partly || injected == 0:
		return ""
	case injected == n:
		return ", injected"
	}
	return fmt.Sprintf(", %d injected", injected)
}

// unreachedWords counts the retries after requests that never reached the
// handler, in retries (the line's other parts count arrivals), beside the
// attempts that never reached it, by outcome as the attempts line counts
// them: a black hole's 80 timeouts are 75 retries, as nothing retries an
// event's last attempt.
func unreachedWords(r *Summary, partly bool) string {
	var parts []string
	n := 0
	for _, o := range outcomeOrder {
		if k := r.Unreached[o]; k > 0 {
			parts = append(parts, fmt.Sprintf("%s %d%s", o, k, injectedMark(partly, r.InjectedUnreached[o], k)))
			n += k
		}
	}
	return fmt.Sprintf("%s after %s that never reached your handler (%s): not duplicates",
		counted(r.ResentUnreached, "retry", "retries"), counted(n, "attempt", "attempts"), strings.Join(parts, " · "))
}
