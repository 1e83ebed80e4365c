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
		out = append(out, fmt.Sprintf("the scenario made answers arrive after the %s timeout, as a slow handler's would, and %s followed: if your handler can be that slow, acknowledge first and do the work from a queue", dur(r.Timeout), counted(r.InjectedLateArrivals, "duplicate", "duplicates")))
	}
	if r.HandlerRedirects > 0 {
		out = append(out, fmt.Sprintf("your endpoint answered %s with a redirect (3xx) and %s does not follow it, so %s even though the URL \"works with curl\": configure the final URL (scheme, host and trailing slash) at the provider", counted(r.HandlerRedirects, "time", "times"), r.Provider, plural(r.HandlerRedirects, "that delivery failed", "those deliveries failed")))
	}
	if n := r.Outcomes[simulator.HTTPError]; n > 0 && r.DuplicateArrivals > 0 && r.Causes[simulator.HTTPError] > 0 && r.HandlerDelivered > 0 {
		out = append(out, "a non-2xx answer makes the provider deliver again: answer 2xx for events you have already processed")
	}
	if n := r.Outcomes[simulator.InvalidResponse]; n > 0 {
		where := "your endpoint"
		if r.Target != "" {
			where = r.Target
		}
		out = append(out, fmt.Sprintf("your handler's answer was not valid HTTP %s (%s), and the provider counts that as a failure and sends again: whatever answers at %s must write a complete HTTP/1.1 status line and headers (is something writing to the raw socket, or another service or proxy on that port?)", counted(n, "time", "times"), answerFault(r.InvalidAnswer), where))
	}
	if r.TLSFailures > 0 && r.HandlerArrivals == 0 {
		out = append(out, w.tlsAdvice(r))
	} else if r.Unreachable > 0 && r.HandlerArrivals == 0 {
		out = append(out, fmt.Sprintf("nothing accepted a connection at %s (%s refused, no fault injected): is your handler running, on that host, port and scheme?", r.Target, counted(r.Unreachable, "attempt", "attempts")))
	}
	if lost := r.Lost - r.LostToDisable - r.LostNotRetried; lost > 0 {
		out = append(out, fmt.Sprintf("%s never delivered: the provider gave up after its whole schedule (%s over %s); %s unless someone resends %s by hand", counted(lost, "event was", "events were"), counted(r.MaxAttempts, "attempt", "attempts"), dur(r.Window), plural(lost, "it is gone", "they are gone"), plural(lost, "it", "them")))
	}
	if r.LostNotRetried > 0 {
		out = append(out, fmt.Sprintf("%s never delivered before the end of the schedule: %s does not retry the failure %s met, or your handler told it to stop (see 'retrysim policies show %s'); %s unless someone resends %s by hand", counted(r.LostNotRetried, "event was", "events were"), r.Policy, plural(r.LostNotRetried, "it", "they"), r.Policy, plural(r.LostNotRetried, "it is gone", "they are gone"), plural(r.LostNotRetried, "it", "them")))
	}
	if line := disableAdvice(r); line != "" {
		out = append(out, line)
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
