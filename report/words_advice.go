package report

import (
	"fmt"
	"strings"

	"github.com/retrysim/retrysim/simulator"
)

// The words of "what to change": one line of advice per thing the run
// showed, from its figures.

func (w words) adviceLines(r *Summary, timeouts []Timeout) []string {
	out := append(r.handshakeAdvice(), w.refusalAdvice(r)...)
	out = append(out, r.signatureAdvice()...)
	if r.Verdict() == NotIdempotent {
		out = append(out, fmt.Sprintf("store the dedup id (%s) under a unique constraint in the same transaction as the side effect, and answer 2xx without acting when it is already there (examples/handlers/idempotent; answering first and working from a queue, give the worker the same guard: examples/handlers/queue)", r.DedupField))
	}
	if r.Causes[simulator.Timeout] > 0 {
		out = append(out, fmt.Sprintf("answer within %s: acknowledge first and do slow work from a queue; the provider gave up waiting while your handler still worked", dur(r.Timeout)))
	} else if slow := r.tooSlowFor(timeouts); len(slow) > 0 {
		out = append(out, fmt.Sprintf("answer faster, acknowledging first and working from a queue: your slowest answer (%s) would time out at %s", ms(r.Percentile(100)), strings.Join(slow, ", ")))
	}
	if r.InjectedLateArrivals > 0 && r.Causes[simulator.Timeout] == 0 {
		out = append(out, fmt.Sprintf("the scenario made answers arrive after the %s timeout, as a slow handler's would, and %d duplicates followed: if your handler can be that slow, acknowledge first and do the work from a queue", dur(r.Timeout), r.InjectedLateArrivals))
	}
	if r.HandlerRedirects > 0 {
		out = append(out, fmt.Sprintf("your endpoint answered %d times with a redirect (3xx) and %s does not follow it, so those deliveries failed even though the URL \"works with curl\": configure the final URL (scheme, host and trailing slash) at the provider", r.HandlerRedirects, r.Provider))
	}
	if n := r.Outcomes[simulator.HTTPError]; n > 0 && r.DuplicateArrivals > 0 && r.Causes[simulator.HTTPError] > 0 && r.HandlerDelivered > 0 {
		out = append(out, "a non-2xx answer makes the provider deliver again: answer 2xx for events you have already processed")
	}
	if n := r.Outcomes[simulator.InvalidResponse]; n > 0 {
		where := "your endpoint"
		if r.Target != "" {
			where = r.Target
		}
		out = append(out, fmt.Sprintf("your handler's answer was not valid HTTP %d times (%s), and the provider counts that as a failure and sends again: whatever answers at %s must write a complete HTTP/1.1 status line and headers (is something writing to the raw socket, or another service or proxy on that port?)", n, answerFault(r.InvalidAnswer), where))
	}
	if r.TLSFailures > 0 && r.HandlerArrivals == 0 {
		out = append(out, w.tlsAdvice(r))
	} else if r.Unreachable > 0 && r.HandlerArrivals == 0 {
		out = append(out, fmt.Sprintf("nothing accepted a connection at %s (%d attempts refused, no fault injected): is your handler running, on that host, port and scheme?", r.Target, r.Unreachable))
	}
	if lost := r.Lost - r.LostToDisable - r.LostNotRetried; lost > 0 {
		out = append(out, fmt.Sprintf("%d events were never delivered: the provider gave up after its whole schedule (%d attempts over %s); they are gone unless someone resends them by hand", lost, r.MaxAttempts, dur(r.Window)))
	}
	if r.LostNotRetried > 0 {
		out = append(out, fmt.Sprintf("%d events were never delivered before the end of the schedule: %s does not retry the failure they met, or your handler told it to stop (see 'retrysim policies show %s'); they are gone unless someone resends them by hand", r.LostNotRetried, r.Policy, r.Policy))
	}
	if r.LostToDisable > 0 && r.DisableAfter > 0 {
		out = append(out, fmt.Sprintf("%d events were lost when the provider disabled the endpoint: alert on failing deliveries long before %d failures in a row", r.LostToDisable, r.DisableAfter))
	}
	return out
}

// answerFault says what was wrong with an answer that was not HTTP, without
// the transport's preamble.
func answerFault(err string) string {
	for _, p := range []string{"net/http: HTTP/1.x transport connection broken: ", "net/http: "} {
		err = strings.TrimPrefix(err, p)
	}
	if err == "" {
		return "no detail recorded"
	}
	return err
}
