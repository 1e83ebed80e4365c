package report

import (
	"fmt"
	"strings"
	"time"

	"github.com/retrysim/retrysim/simulator"
)

// The words of the gates (gates.go decides how each came out): the
// message of each result, with its figures.

// gateMessage says what a gate saw, and why a gate that would pass cannot
// be vouched for.
func (w words) gateMessage(g *GateResult, opts GateOptions) string {
	msg := w.gateSeen(g, opts)
	switch g.unvouched {
	case unvouchedCaveat:
		return "cannot be vouched for: " + caveatWords(g.Run.Judge())
	case unvouchedCut:
		return "the results stream stops before the run's end record (cut off), so this cannot be vouched for: " + msg
	case unvouchedInterrupted:
		return cutWords(g.Run) + ", so this cannot be vouched for: " + msg
	}
	return msg
}

// cutWords says what ended r before its end: an interrupt, or a restart
// of the handler that failed.
func cutWords(r *Summary) string {
	if f := r.RestartFailed; f != nil {
		return fmt.Sprintf("the run stopped at +%s, where the handler could not be restarted", dur(f.At))
	}
	return "the run was interrupted before its end"
}

// gateSeen says what the gate saw in the run.
func (w words) gateSeen(g *GateResult, opts GateOptions) string {
	r := g.Run
	switch g.Gate {
	case GateDuplicateEffects:
		return w.duplicateEffectsSeen(r)
	case GateLostEvents:
		return lostEventsSeen(g)
	case GateSlowResponses:
		return slowResponsesSeen(g, opts)
	case GateRedirects:
		switch {
		case g.Status == GatePass && r.RedirectsUnreached > 0:
			return unreachedRedirectGate(r)
		case g.Status == GatePass:
			return "no delivery failed on a redirect"
		case g.Reason == GateRedirectRefused:
			return w.refusedRedirectGate(r)
		}
		return fmt.Sprintf("%s failed because the endpoint answered with a redirect (3xx) that %s does not follow: configure the final URL (scheme, host, trailing slash) at the provider", counted(r.HandlerRedirects, "attempt", "attempts"), r.Provider)
	case GateTTLTooShort:
		return w.ttlSeen(g, opts)
	case GateForgedAccepted:
		if g.Status == GateUnchecked && g.unvouched == vouched {
			return "cannot be checked: " + w.signatureSeen(r)
		}
		return w.signatureSeen(r)
	}
	return fmt.Sprintf("unknown gate (valid: %s)", GateNames())
}

// gateRefusal says why a run planned as p could never check gate g (why,
// from GatePlan.Uncheckable), and what to change.
func (w words) gateRefusal(g Gate, why GateReason, p GatePlan) string {
	head := w.of(SettingGates) + " " + string(g) + ": "
	switch why {
	case GateModelled: // the verdict's ReasonModelled too
		return head + "a dry run sends nothing, so " + modelledMisses(g) + ": drop " + w.of(SettingDryRun)
	case GateReason(ReasonNoOracle):
		return head + w.noOracle()
	case GateNoTTL:
		return head + w.noTTL() + fmt.Sprintf(" (e.g. %s 24h)", w.of(SettingTTLConfigured))
	case GateReason(SigNoAttack):
		return head + fmt.Sprintf("scenario %s sends no request your handler must reject; use %s, or add bad-signature, tampered-body, missing-signature, stale-timestamp or replayed faults", p.Scenario, w.of(simulator.SettingForgedScenario))
	}
	return head + "cannot be checked (" + string(why) + ")"
}

// noTTL says the ttl-too-short gate needs the dedup TTL the handler uses.
func (w words) noTTL() string {
	return "give the dedup TTL your handler uses with " + w.of(SettingTTLConfigured)
}

// modelledMisses is what a dry run leaves gate g nothing to check on.
func modelledMisses(g Gate) string {
	switch g {
	case GateDuplicateEffects:
		return "there are no side effects to judge"
	case GateSlowResponses:
		return "no response time is measured"
	case GateForgedAccepted:
		return "no forged request is answered"
	}
	return "there is nothing to check"
}

func (w words) duplicateEffectsSeen(r *Summary) string {
	j := r.Judge()
	switch j.Verdict {
	case Idempotent:
		return fmt.Sprintf("no event was processed more than once (%s absorbed)", counted(j.Duplicates, "duplicate arrival", "duplicate arrivals"))
	case NotIdempotent:
		off := r.OffenderCounts()
		parts := make([]string, 0, 5)
		for _, o := range off[:min(5, len(off))] {
			parts = append(parts, fmt.Sprintf("%s processed %d times", o.ID, o.Times))
		}
		more := ""
		if len(off) > 5 {
			more = fmt.Sprintf(", and %d more", len(off)-5)
		}
		return fmt.Sprintf("%s of %d processed more than once: %s%s", counted(j.Offenders, "event", "events"), r.Events, strings.Join(parts, "; "), more)
	}
	if j.Reason == ReasonNoOracle {
		return "cannot be checked: " + w.noOracle()
	}
	return "cannot be checked: " + w.unknown(r, j)
}

func lostEventsSeen(g *GateResult) string {
	r := g.Run
	switch g.Reason {
	case GateAllDelivered:
		return fmt.Sprintf("%s %s delivered", allOf(r.Delivered, "event", "events"), plural(r.Delivered, "was", "were"))
	case GateEventsCutShort:
		return cutWords(r) + ", so losses cannot be ruled out: " + cutShortWords(r)
	}
	msg := fmt.Sprintf("%d of %s %s never delivered", r.Lost, counted(r.Events, "event", "events"), plural(r.Lost, "was", "were"))
	if r.LostToDisable > 0 {
		if why := disabledBecause(r); why != "" {
			msg += fmt.Sprintf(" (%d because %s)", r.LostToDisable, why)
		}
	}
	return msg + "; " + r.Provider + " gives up on an event after its last retry"
}

// cutShortWords says what became of an interrupted run's events, in the
// figures the report's delivered line and header give: those whose
// schedules the interrupt cut short, and those it kept from starting.
func cutShortWords(r *Summary) string {
	var msg string
	if n := r.InterruptedEvents; n > 0 {
		msg = fmt.Sprintf("%d of %s %s not delivered before %s cut short (%d %s)", n, counted(r.Events, "event", "events"),
			plural(n, "was", "were"), plural(n, "its schedule was", "their schedules were"), r.Delivered, plural(r.Delivered, "was", "were"))
	} else {
		msg = fmt.Sprintf("%s that started %s delivered", allOf(r.Delivered, "event", "events"), plural(r.Delivered, "was", "were"))
	}
	if n := r.NeverStarted(); n > 0 {
		msg += fmt.Sprintf(", and %d of the %d planned never started", n, r.Planned)
	}
	return msg
}

func slowResponsesSeen(g *GateResult, opts GateOptions) string {
	r := g.Run
	if g.Reason == GateModelled {
		return "cannot be checked: this run only modelled your handler (a dry run) and sent nothing, so no response time was measured"
	}
	own := r.Headroom(nil)[0]
	figures := "no answer was measured"
	if r.Answers() > 0 {
		figures = fmt.Sprintf("p99 %s, max %s", ms(r.Percentile(99)), ms(r.Percentile(100)))
	}
	if g.Reason == GateWithinTimeout {
		msg := fmt.Sprintf("every answer came within %s's %s timeout (%s)", r.Policy, dur(r.Timeout), figures)
		if own.Verdict != HeadroomUnmeasured {
			msg += fmt.Sprintf("; %s to spare", ms(own.Spare))
		}
		if slow := r.tooSlowFor(opts.Timeouts); len(slow) > 0 {
			msg += "; too slow for " + strings.Join(slow, ", ")
		}
		return msg
	}
	// The percentiles leave out the attempts the timeout cut off, which
	// are the slow ones: name those first.
	var parts []string
	if r.HandlerTimeouts > 0 {
		parts = append(parts, fmt.Sprintf("%d got no answer within %s", r.HandlerTimeouts, dur(r.Timeout)))
	}
	if late := own.Over - r.HandlerTimeouts; late > 0 {
		parts = append(parts, fmt.Sprintf("%d %s slower than that", late, plural(late, "was answered", "were answered")))
	}
	if r.Answers() > 0 {
		figures = "the answers that came had " + figures
	}
	return fmt.Sprintf("%d of %s that reached the handler waited past %s's %s timeout (%s; %s): the provider gave up and will deliver again while the handler still works",
		own.Over, counted(r.HandlerArrivals, "attempt", "attempts"), r.Policy, dur(r.Timeout), strings.Join(parts, ", "), figures)
}

func (w words) ttlSeen(g *GateResult, opts GateOptions) string {
	r, ttl := g.Run, opts.TTLConfigured
	if g.Reason == GateNoTTL {
		return "cannot be checked: " + w.noTTL()
	}
	a := r.TTL([]time.Duration{ttl})
	need := a.Need()
	if g.Reason == GateTTLCovers {
		return fmt.Sprintf("a %s TTL covers %s's %s retry window and the longest wait seen from a key to a duplicate (%s)", dur(ttl), r.Policy, dur(a.Window), dur(a.Observed))
	}
	msg := fmt.Sprintf("a %s TTL is shorter than the %s a dedup key must last (%s retries for %s; longest wait seen from a key to a duplicate %s): a retry after the key expired is processed again",
		dur(ttl), dur(need), r.Policy, dur(a.Window), dur(a.Observed))
	if leaked := a.Choices[0].LeakedArrivals; leaked > 0 {
		msg += fmt.Sprintf("; %d duplicate arrivals in this run came after it", leaked)
	}
	return msg + fmt.Sprintf("; recommend %s", dur(a.Recommended))
}

// GatesFailed says which of results did not pass, each gate with its
// run's policy and status: "1 of 2 gate checks did not pass: lost-events
// (stripe: fail)", what a command says as it exits for a failed gate; ""
// when every gate passed.
func GatesFailed(results []GateResult) string {
	failed := FailedGates(results)
	if len(failed) == 0 {
		return ""
	}
	names := make([]string, len(failed))
	for i, g := range failed {
		names[i] = fmt.Sprintf("%s (%s: %s)", g.Gate, g.Run.Policy, g.Status)
	}
	return fmt.Sprintf("%d of %d gate checks did not pass: %s", len(failed), len(results), strings.Join(names, ", "))
}
