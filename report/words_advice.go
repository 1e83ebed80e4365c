package report

import (
	"fmt"
	"strings"
	"time"

	"github.com/retrysim/retrysim/simulator"
)

// The words of "what to change": one line of advice per thing the run
// showed, from its figures.

func (w words) adviceLines(r *Summary, timeouts []Timeout) []string {
	out := append(w.handshakeAdvice(r), w.refusalAdvice(r)...)
	out = append(out, r.signatureAdvice()...)
	if r.Verdict() == NotIdempotent && r.FanOutArrivals > 0 && r.DedupDeliveryField != "" {
		out = append(out, fanOutAdvice(r))
	}
	if r.Verdict() == NotIdempotent {
		out = append(out, fmt.Sprintf("store the dedup id (%s) under a unique constraint in the same transaction as the side effect, and answer 2xx without acting when it is already there (examples/handlers/idempotent; answering first and working from a queue, give the worker the same guard: examples/handlers/queue)", r.DedupField))
	}
	if r.Causes[simulator.Timeout] > 0 {
		out = append(out, fmt.Sprintf("answer within %s: acknowledge first and do slow work from a queue; the provider gave up waiting while your handler still worked", dur(r.Timeout)))
	} else if slow := r.tooSlowFor(timeouts); len(slow) > 0 {
		slowest := "your slowest answer (" + ms(r.Percentile(100)) + ")"
		if r.HandlerTimeouts > 0 {
			// Cut off at the timeout: how slow it was is not known.
			slowest = fmt.Sprintf("your handler gave no answer within %s at times, which", dur(r.Timeout))
		}
		out = append(out, fmt.Sprintf("answer faster, acknowledging first and working from a queue: %s would time out at %s", slowest, strings.Join(slow, ", ")))
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
	if r.LostToProvider > 0 {
		out = append(out, fmt.Sprintf("%s never sent: %s dropped %s in its own outage and did not replay %s, so no retry and no dedup brings %s back: after a provider incident, reconcile from its API (list what changed in the window) instead of waiting for deliveries", counted(r.LostToProvider, "event was", "events were"), r.Provider, plural(r.LostToProvider, "it", "them"), plural(r.LostToProvider, "it", "them"), plural(r.LostToProvider, "it", "them")))
	}
	if r.LostToPause > 0 {
		longest := time.Duration(0)
		for _, p := range r.Pauses {
			longest = max(longest, p.To.Sub(p.From))
		}
		out = append(out, fmt.Sprintf("%s never sent: %s due while %s had the endpoint disabled for a while after failures in a row (%s, the longest %s), and %s does not send %s later: alert on the first failures, and after a pause reconcile from the provider's API", counted(r.LostToPause, "event was", "events were"), plural(r.LostToPause, "it was", "they were"), r.Provider, counted(len(r.Pauses), "pause", "pauses"), dur(longest), r.Provider, plural(r.LostToPause, "it", "them")))
	}
	if lost := r.Lost - r.LostToDisable - r.LostNotRetried - r.LostToProvider - r.LostToPause; lost > 0 {
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

// keyOn names the key to store, after a TTL recommendation: the dedup id,
// and, when the run sent events through several subscriptions, the id that
// would let them through; "" for a stream that names no key.
func keyOn(r *Summary) string {
	if r.DedupField == "" {
		return ""
	}
	s := fmt.Sprintf(". Key on the %s", r.DedupField)
	if r.FanOutArrivals > 0 && r.DedupDeliveryField != "" {
		s += fmt.Sprintf(", which every subscription's delivery of an event shares; not on the %s, which each subscription's delivery has of its own", r.DedupDeliveryField)
	}
	return s
}

// fanOutWords says, after NOT IDEMPOTENT, how many duplicates were not
// retries but the event's deliveries through other subscriptions; "" when
// none were.
func fanOutWords(r *Summary) string {
	if r.FanOutArrivals == 0 {
		return ""
	}
	return fmt.Sprintf(" (%s another subscription's delivery of the event, not a retry)", counted(r.FanOutArrivals, "duplicate arrival was", "duplicate arrivals were"))
}

// fanOutAdvice is what to change when one event reached the handler through
// several subscriptions and was processed more than once.
func fanOutAdvice(r *Summary) string {
	return fmt.Sprintf("%s sent each event through %s, each delivery with its own %s: no retry is needed for those to arrive, and a dedup keyed on that id processes the event once per subscription. Key on the %s, the same on every subscription's delivery and every retry (or remove the extra subscription)",
		r.Provider, counted(r.Subscriptions, "subscription", "subscriptions"), r.DedupDeliveryField, r.DedupField)
}
