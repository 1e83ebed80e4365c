package report

// The words of what became of a run's events and attempts: "delivered
// 20/20 events · 35 attempts: 20 answered 2xx in time · lost_response 8".
// The events and the attempts are counted apart, and the attempts' part
// never says "delivered": 25 attempts of 20 events would read as more
// deliveries than events.

import (
	"fmt"
	"strings"

	"github.com/retrysim/retrysim/simulator"
)

// deliveredOf is how many of the run's events were delivered, of how
// many: "20/20". Of an interrupted run, the events it was to deliver,
// the unstarted ones too, as its header counts them.
func deliveredOf(r *Summary) string {
	return fmt.Sprintf("%d/%d", r.Delivered, r.toDeliver())
}

// toDeliver counts the events the run was to deliver: those it started,
// and an interrupted run's unstarted ones.
func (r *Summary) toDeliver() int { return r.Events + r.NeverStarted() }

// deliveredLine says what became of the run's events: "delivered 20/20
// events · LOST 3", and of an interrupted run how far it got: "delivered
// 40114/100000 events (interrupted when 43841 had started, 3727 of them
// unfinished)".
func deliveredLine(r *Summary) string {
	s := fmt.Sprintf("delivered %s %s", deliveredOf(r), plural(r.toDeliver(), "event", "events"))
	if r.Interrupted {
		s += interruptedWords(r)
	}
	if r.Lost > 0 {
		s += fmt.Sprintf(" · LOST %d", r.Lost)
	}
	return s
}

// interruptedWords says how far an interrupted run got: " (interrupted
// before any had started)", " (interrupted when 43841 had started, 3727 of
// them unfinished)", " (interrupted when 2 had started)", " (interrupted: 3
// unfinished)", or "stopped at the failed restart" in place of
// "interrupted" for a run a restart of its handler stopped; "" when the
// interrupt cut no event short.
func interruptedWords(r *Summary) string {
	cut := "interrupted"
	if r.RestartFailed != nil {
		cut = "stopped at the failed restart"
	}
	switch {
	case r.NeverStarted() > 0 && r.Events == 0:
		return fmt.Sprintf(" (%s before any had started)", cut)
	case r.NeverStarted() > 0 && r.InterruptedEvents == 0:
		return fmt.Sprintf(" (%s when %d had started)", cut, r.Events)
	case r.NeverStarted() > 0:
		return fmt.Sprintf(" (%s when %d had started, %d of them unfinished)", cut, r.Events, r.InterruptedEvents)
	case r.InterruptedEvents > 0:
		return fmt.Sprintf(" (%s: %d unfinished)", cut, r.InterruptedEvents)
	}
	return ""
}

// attemptsLine counts the run's attempts by outcome ("35 attempts: 20
// answered 2xx in time · lost_response 8 · …"): the outcomes count
// attempts, not events, and the line says so.
func attemptsLine(r *Summary) string {
	if r.Attempts == 0 {
		return "no attempts"
	}
	return counted(r.Attempts, "attempt", "attempts") + ": " + outcomeLine(r)
}

// outcomeLine counts attempts by outcome, each by its name in the results
// stream but the delivered ones, which it says as what they were: an answer
// the provider got, 2xx and in time.
func outcomeLine(r *Summary) string {
	var parts []string
	for _, o := range outcomeOrder {
		n := r.Outcomes[o]
		switch {
		case n == 0:
		case o == simulator.Delivered:
			parts = append(parts, fmt.Sprintf("%d answered 2xx in time", n))
		default:
			parts = append(parts, fmt.Sprintf("%s %d", o, n))
		}
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, " · ")
}
