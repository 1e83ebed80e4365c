package report

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/retrysim/retrysim/simulator"
)

// Gate is a check a CI job can fail on (`retrysim run --fail-on GATE,…`).
type Gate string

// The gates. Each is checked per run.
const (
	// GateDuplicateEffects fails when the handler processed an event more
	// than once (the verdict is NOT IDEMPOTENT). It cannot pass without an
	// effects oracle, nor when the run put idempotency to no test: the
	// handler accepted no delivery, or no duplicate reached it (see
	// Summary.Untested).
	GateDuplicateEffects Gate = "duplicate-effects"
	// GateLostEvents fails when an event was never delivered: every attempt
	// of the schedule failed, the endpoint was disabled first, or the
	// handler told the provider to stop.
	GateLostEvents Gate = "lost-events"
	// GateSlowResponses fails when the handler itself made the provider wait
	// past its timeout at least once: an attempt that reached the handler and
	// got no answer in time, or an answer measured slower than the timeout
	// (its headroom, see Summary.Headroom, is negative). A p99 above the timeout
	// is such a case. Latency a scenario injects is not the handler's and
	// does not count. Its message names the other providers
	// (GateOptions.Timeouts) the handler would be too slow for. A modelled
	// run (a dry run) measures nothing, so the gate cannot be checked.
	GateSlowResponses Gate = "slow-responses"
	// GateRedirects fails when an attempt failed because the endpoint
	// answered with a redirect the provider does not follow.
	GateRedirects Gate = "redirects"
	// GateTTLTooShort fails when the configured dedup TTL
	// (GateOptions.TTLConfigured) is shorter than the span a key must
	// cover: the policy's worst-case retry window, or the longest wait from
	// a key to a duplicate observed in the run, whichever is longer. Manual
	// redelivery is not included.
	GateTTLTooShort Gate = "ttl-too-short"
	// GateForgedAccepted fails when the handler let an attack through (the
	// signature check is not enforced): a 2xx to a forged, tampered,
	// unsigned or stale request, a side effect of any attack, or the
	// provider's own probe answered wrongly. It cannot pass when no attack
	// was answered.
	GateForgedAccepted Gate = "forged-accepted"
)

// Gates lists the gates in the order reports show them.
func Gates() []Gate {
	return []Gate{GateDuplicateEffects, GateLostEvents, GateSlowResponses, GateRedirects, GateTTLTooShort, GateForgedAccepted}
}

// ErrUnknownGate is returned, wrapped, by ParseGates for a name not in Gates.
var ErrUnknownGate = errors.New("unknown gate")

// GateStatus is how a gate came out.
type GateStatus string

// Gate statuses.
const (
	GatePass GateStatus = "pass"
	GateFail GateStatus = "fail"
	// GateUnchecked ("unknown"): the gate could not be checked (no effects oracle, the run
	// was interrupted, no configured TTL). A CI gate that cannot be checked
	// does not pass.
	GateUnchecked GateStatus = "unknown"
)

// GateReason says why a gate came out as it did: a code, with the figures
// in the run. duplicate-effects uses the verdict's Reason, forged-accepted
// the signature check's SigReasonCode; the other gates these.
type GateReason string

// The reasons of the gates other than duplicate-effects and forged-accepted.
const (
	GateAllDelivered GateReason = "all_delivered"
	GateEventsLost   GateReason = "events_lost"
	// GateEventsCutShort: none was lost, but the run was interrupted
	// before every event it was to deliver was delivered: the interrupt
	// cut some events' schedules short, or kept some from starting.
	GateEventsCutShort GateReason = "events_cut_short"
	GateModelled       GateReason = "modelled"
	GateWithinTimeout  GateReason = "within_timeout"
	GatePastTimeout    GateReason = "past_timeout"
	GateNoRedirect     GateReason = "no_redirect"
	GateRedirected     GateReason = "redirected"
	GateNoTTL          GateReason = "no_ttl_configured"
	GateTTLCovers      GateReason = "ttl_covers"
	GateTTLShort       GateReason = "ttl_too_short"
	GateAttackThrough  GateReason = "attack_through"
	GateUnknownGate    GateReason = "unknown_gate"
	// GateRedirectRefused: the only redirects led off this machine, where
	// retrysim refused to follow, so whether following them delivers is
	// not known.
	GateRedirectRefused GateReason = "redirect_refused"
)

// GateOptions are what some gates need besides the run.
type GateOptions struct {
	// TTLConfigured is the dedup TTL the handler uses, for GateTTLTooShort.
	TTLConfigured time.Duration
	// Timeouts are the other providers' timeouts (Report.Timeouts), for
	// GateSlowResponses to name those the handler is too slow for.
	Timeouts []Timeout
	// Spelling names the settings a message advises the way the caller
	// sets them (nil: the Go way).
	Spelling simulator.Spelling
}

// GateResult is one gate checked against one run.
type GateResult struct {
	Gate   Gate
	Run    *Summary
	Status GateStatus
	// Reason is why, as a code: for duplicate-effects the verdict's reason
	// (see Judge), for forged-accepted the signature check's; for
	// lost-events on a run that did not reach its end, GateEventsCutShort
	// (no loss can be ruled out).
	Reason GateReason
	// Message says in words what was seen, with the figures.
	Message string
	// unvouched says why a gate that would pass is GateUnchecked.
	unvouched unvouched
}

// Failed reports whether the gate did not pass (it failed, or could not be
// checked).
func (g *GateResult) Failed() bool { return g.Status != GatePass }

// ParseGates reads gate names (each may itself be a comma-separated list),
// dropping repeats. An unknown name is an error naming it and the valid
// ones.
func ParseGates(names []string) ([]Gate, error) {
	var out []Gate
	var errs []error
	for _, n := range names {
		for _, part := range strings.Split(n, ",") {
			g := Gate(strings.ToLower(strings.TrimSpace(part)))
			switch {
			case g == "":
			case !slices.Contains(Gates(), g):
				errs = append(errs, fmt.Errorf("%w %q (valid: %s)", ErrUnknownGate, strings.TrimSpace(part), GateNames()))
			case !slices.Contains(out, g):
				out = append(out, g)
			}
		}
	}
	return out, errors.Join(errs...)
}

// GateNames lists the gates' names, comma-separated, for help and errors.
func GateNames() string {
	gates := Gates()
	names := make([]string, len(gates))
	for i, g := range gates {
		names[i] = string(g)
	}
	return strings.Join(names, ", ")
}

// CheckGates checks each gate against each run, run by run in order.
func CheckGates(runs []*Summary, gates []Gate, opts GateOptions) []GateResult {
	var out []GateResult
	w := words{sp: opts.Spelling}
	for _, r := range runs {
		for _, g := range gates {
			res := GateResult{Gate: g, Run: r, Status: GateUnchecked, Reason: GateUnknownGate}
			if check, ok := gateChecks[g]; ok {
				res.Status, res.Reason = check(r, opts)
			}
			if res.Status == GatePass {
				switch {
				case g == GateDuplicateEffects && r.Judge().Caveat != CaveatNone && r.Judge().Caveat != CaveatSettledOnQuiet:
					// A verdict settled on quiet stands: the caveat says
					// how to make it exact, and the gate passes.
					res.Status, res.unvouched = GateUnchecked, unvouchedCaveat
				case r.Incomplete:
					res.Status, res.unvouched = GateUnchecked, unvouchedCut
				case r.Interrupted:
					res.Status, res.unvouched = GateUnchecked, unvouchedInterrupted
				}
			}
			res.Message = w.gateMessage(&res, opts)
			out = append(out, res)
		}
	}
	return out
}

// unvouched says why a gate that would pass cannot be vouched for.
type unvouched int

const (
	vouched unvouched = iota
	// unvouchedCaveat: the verdict stands with a caveat (Judgement.Caveat).
	unvouchedCaveat
	// unvouchedCut: the results stream stops before the run's end record.
	unvouchedCut
	// unvouchedInterrupted: the run was interrupted before its end.
	unvouchedInterrupted
)

// FailedGates returns the results that did not pass.
func FailedGates(results []GateResult) []GateResult {
	var out []GateResult
	for _, g := range results {
		if g.Failed() {
			out = append(out, g)
		}
	}
	return out
}

// GatesFor returns the results that belong to run r.
func GatesFor(results []GateResult, r *Summary) []GateResult {
	var out []GateResult
	for _, g := range results {
		if g.Run == r {
			out = append(out, g)
		}
	}
	return out
}

// GatePlan is what a run will do, as far as the gates care, known before
// it starts. A command asks Uncheckable so that it refuses, before
// anything is sent, a gate the run could never check.
type GatePlan struct {
	// Modelled: a dry run, which sends nothing.
	Modelled bool
	// NoOracle: nothing will report the handler's side effects (a handler
	// of the user's own with no effects oracle).
	NoOracle bool
	// NoAttack: the run sends no request the handler must reject (the
	// scenario has no attack and the provider sends no probe).
	NoAttack bool
	// NoTTL: no dedup TTL the handler uses is given
	// (GateOptions.TTLConfigured).
	NoTTL bool
	// Scenario is the scenario's name, for the words of a refusal.
	Scenario string
}

// Refusals returns an error for each of gates that a run planned as p
// could never check (see Uncheckable), saying why and what to change, the
// settings named as sp spells them (nil: the Go way): what a command
// refuses before anything is sent. Nil when every gate can be checked.
func (p GatePlan) Refusals(gates []Gate, sp simulator.Spelling) []error {
	var errs []error
	w := words{sp: sp}
	for _, g := range gates {
		if why := p.Uncheckable(g); why != "" {
			errs = append(errs, errors.New(w.gateRefusal(g, why, p)))
		}
	}
	return errs
}

// Uncheckable says why a run planned as p could never check gate g, as the
// reason the gate would give after the run; "" when it can be checked.
func (p GatePlan) Uncheckable(g Gate) GateReason {
	switch g {
	case GateDuplicateEffects:
		switch {
		case p.Modelled:
			return GateReason(ReasonModelled)
		case p.NoOracle:
			return GateReason(ReasonNoOracle)
		}
	case GateSlowResponses:
		if p.Modelled {
			return GateModelled
		}
	case GateTTLTooShort:
		if p.NoTTL {
			return GateNoTTL
		}
	case GateForgedAccepted:
		switch {
		case p.Modelled:
			return GateModelled
		case p.NoAttack:
			return GateReason(SigNoAttack)
		}
	}
	return ""
}

// gateCheck decides how a gate came out for a run, and why.
type gateCheck func(*Summary, GateOptions) (GateStatus, GateReason)

var gateChecks = map[Gate]gateCheck{
	GateDuplicateEffects: checkDuplicateEffects,
	GateLostEvents:       checkLostEvents,
	GateSlowResponses:    checkSlowResponses,
	GateRedirects:        checkRedirects,
	GateTTLTooShort:      checkTTL,
	GateForgedAccepted:   checkForgedAccepted,
}

func checkDuplicateEffects(r *Summary, _ GateOptions) (GateStatus, GateReason) {
	j := r.Judge()
	switch j.Verdict {
	case Idempotent:
		return GatePass, GateReason(j.Reason)
	case NotIdempotent:
		return GateFail, GateReason(j.Reason)
	}
	return GateUnchecked, GateReason(j.Reason)
}

func checkLostEvents(r *Summary, _ GateOptions) (GateStatus, GateReason) {
	switch {
	case r.Lost > 0:
		return GateFail, GateEventsLost
	case r.InterruptedEvents > 0 || r.NeverStarted() > 0:
		// Not lost, and not delivered either: what became of them the
		// run never saw.
		return GateUnchecked, GateEventsCutShort
	}
	return GatePass, GateAllDelivered
}

func checkSlowResponses(r *Summary, _ GateOptions) (GateStatus, GateReason) {
	if why := (GatePlan{Modelled: r.Modelled()}).Uncheckable(GateSlowResponses); why != "" {
		return GateUnchecked, why
	}
	if r.Headroom(nil)[0].Over == 0 {
		return GatePass, GateWithinTimeout
	}
	return GateFail, GatePastTimeout
}

func checkForgedAccepted(r *Summary, _ GateOptions) (GateStatus, GateReason) {
	switch r.SignatureCheck() {
	case SignatureEnforced:
		return GatePass, GateReason(SigTested)
	case SignatureNotEnforced:
		return GateFail, GateAttackThrough
	}
	return GateUnchecked, GateReason(r.sigReason().Code)
}

func checkRedirects(r *Summary, _ GateOptions) (GateStatus, GateReason) {
	switch {
	case r.HandlerRedirects > 0:
		return GateFail, GateRedirected
	case r.RedirectsRefused > 0:
		return GateUnchecked, GateRedirectRefused
	}
	return GatePass, GateNoRedirect
}

func checkTTL(r *Summary, opts GateOptions) (GateStatus, GateReason) {
	ttl := opts.TTLConfigured
	if why := (GatePlan{NoTTL: ttl <= 0}).Uncheckable(GateTTLTooShort); why != "" {
		return GateUnchecked, why
	}
	a := r.TTL([]time.Duration{ttl})
	if !leaksPast(a.Need(), ttl) {
		return GatePass, GateTTLCovers
	}
	return GateFail, GateTTLShort
}
