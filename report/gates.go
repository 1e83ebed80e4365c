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
	// Run.Untested).
	GateDuplicateEffects Gate = "duplicate-effects"
	// GateLostEvents fails when an event was never delivered: every attempt
	// of the schedule failed, the endpoint was disabled first, or the
	// handler told the provider to stop.
	GateLostEvents Gate = "lost-events"
	// GateSlowResponses fails when the handler itself made the provider wait
	// past its timeout at least once: an attempt that reached the handler and
	// got no answer in time, or an answer measured slower than the timeout
	// (its headroom, see Run.Headroom, is negative). A p99 above the timeout
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
var Gates = []Gate{GateDuplicateEffects, GateLostEvents, GateSlowResponses, GateRedirects, GateTTLTooShort, GateForgedAccepted}

// ErrUnknownGate is returned, wrapped, by ParseGates for a name not in Gates.
var ErrUnknownGate = errors.New("unknown gate")

// GateStatus is how a gate came out.
type GateStatus string

// Gate statuses.
const (
	GatePass GateStatus = "pass"
	GateFail GateStatus = "fail"
	// GateUnknown: the gate could not be checked (no effects oracle, the run
	// was interrupted, no configured TTL). A CI gate that cannot be checked
	// does not pass.
	GateUnknown GateStatus = "unknown"
)

// GateReason says why a gate came out as it did: a code, with the figures
// in the run. duplicate-effects uses the verdict's Reason, forged-accepted
// the signature check's SigReasonCode; the other gates these.
type GateReason string

// The reasons of the gates other than duplicate-effects and forged-accepted.
const (
	GateAllDelivered  GateReason = "all_delivered"
	GateEventsLost    GateReason = "events_lost"
	GateModelled      GateReason = "modelled"
	GateWithinTimeout GateReason = "within_timeout"
	GatePastTimeout   GateReason = "past_timeout"
	GateNoRedirect    GateReason = "no_redirect"
	GateRedirected    GateReason = "redirected"
	GateNoTTL         GateReason = "no_ttl_configured"
	GateTTLCovers     GateReason = "ttl_covers"
	GateTTLShort      GateReason = "ttl_too_short"
	GateAttackThrough GateReason = "attack_through"
	GateUnknownGate   GateReason = "unknown_gate"
)

// GateOptions are what some gates need besides the run.
type GateOptions struct {
	// TTLConfigured is the dedup TTL the handler uses, for GateTTLTooShort.
	TTLConfigured time.Duration
	// Timeouts are the other providers' timeouts (Report.Timeouts), for
	// GateSlowResponses to name those the handler is too slow for.
	Timeouts []Timeout
}

// GateResult is one gate checked against one run.
type GateResult struct {
	Gate   Gate
	Run    *Run
	Status GateStatus
	// Reason is why, as a code: for duplicate-effects the verdict's reason
	// (see Judge), for forged-accepted the signature check's. Interrupted
	// says the run did not reach its end, so a gate that would pass cannot
	// be vouched for.
	Reason      GateReason
	Interrupted bool
	// Message says in words what was seen, with the figures.
	Message string
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
			case !slices.Contains(Gates, g):
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
	names := make([]string, len(Gates))
	for i, g := range Gates {
		names[i] = string(g)
	}
	return strings.Join(names, ", ")
}

// CheckGates checks each gate against each run, run by run in order.
func CheckGates(runs []*Run, gates []Gate, opts GateOptions) []GateResult {
	var out []GateResult
	for _, r := range runs {
		for _, g := range gates {
			check, ok := gateChecks[g]
			if !ok {
				out = append(out, GateResult{Gate: g, Run: r, Status: GateUnknown, Reason: GateUnknownGate, Message: fmt.Sprintf("unknown gate (valid: %s)", GateNames())})
				continue
			}
			status, reason, msg := check(r, opts)
			res := GateResult{Gate: g, Run: r, Reason: reason}
			if g == GateDuplicateEffects {
				if j := r.Judge(); status == GatePass && j.Caveat != CaveatNone {
					status, msg = GateUnknown, "cannot be vouched for: "+r.caveatWords(j)
				}
			}
			if r.Incomplete && status == GatePass {
				status, msg = GateUnknown, "the results stream stops before the run's end record (cut off), so this cannot be vouched for: "+msg
			}
			if r.Interrupted && status == GatePass {
				res.Interrupted = true
				status, msg = GateUnknown, "the run was interrupted before its end, so this cannot be vouched for: "+msg
			}
			res.Status, res.Message = status, msg
			out = append(out, res)
		}
	}
	return out
}

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
func GatesFor(results []GateResult, r *Run) []GateResult {
	var out []GateResult
	for _, g := range results {
		if g.Run == r {
			out = append(out, g)
		}
	}
	return out
}

type gateCheck func(*Run, GateOptions) (GateStatus, GateReason, string)

var gateChecks = map[Gate]gateCheck{
	GateDuplicateEffects: checkDuplicateEffects,
	GateLostEvents:       checkLostEvents,
	GateSlowResponses:    checkSlowResponses,
	GateRedirects:        checkRedirects,
	GateTTLTooShort:      checkTTL,
	GateForgedAccepted:   checkForgedAccepted,
}

func checkDuplicateEffects(r *Run, _ GateOptions) (GateStatus, GateReason, string) {
	j := r.Judge()
	switch j.Verdict {
	case Idempotent:
		return GatePass, GateReason(j.Reason), fmt.Sprintf("no event was processed more than once (%s absorbed)", counted(j.Duplicates, "duplicate arrival", "duplicate arrivals"))
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
		return GateFail, GateReason(j.Reason), fmt.Sprintf("%s of %d processed more than once: %s%s", counted(j.Offenders, "event", "events"), r.Events, strings.Join(parts, "; "), more)
	}
	if j.Reason == ReasonNoOracle {
		return GateUnknown, GateReason(j.Reason), `cannot be checked: retrysim cannot see the handler's side effects; serve {"<dedup id>": <times processed>} and pass --effects-url`
	}
	return GateUnknown, GateReason(j.Reason), "cannot be checked: " + strings.TrimPrefix(r.unknownLine(j), "UNKNOWN — ")
}

func checkLostEvents(r *Run, _ GateOptions) (GateStatus, GateReason, string) {
	if r.Lost == 0 {
		return GatePass, GateAllDelivered, fmt.Sprintf("%s %s delivered", allOf(r.Delivered, "event", "events"), plural(r.Delivered, "was", "were"))
	}
	msg := fmt.Sprintf("%d of %s %s never delivered", r.Lost, counted(r.Events, "event", "events"), plural(r.Lost, "was", "were"))
	if r.LostToDisable > 0 {
		msg += fmt.Sprintf(" (%d because %s disabled the endpoint after %s in a row)", r.LostToDisable, r.Provider, counted(r.DisableAfter, "failure", "failures"))
	}
	return GateFail, GateEventsLost, msg + "; " + r.Provider + " gives up on an event after its last retry"
}

func checkSlowResponses(r *Run, opts GateOptions) (GateStatus, GateReason, string) {
	if r.Modelled() {
		return GateUnknown, GateModelled, "cannot be checked: this run only modelled your handler (a dry run) and sent nothing, so no response time was measured"
	}
	own := r.Headroom(nil)[0]
	figures := "no answer was measured"
	if r.Answers() > 0 {
		figures = fmt.Sprintf("p99 %s, max %s", ms(r.Percentile(99)), ms(r.Percentile(100)))
	}
	if own.Over == 0 {
		msg := fmt.Sprintf("every answer came within %s's %s timeout (%s)", r.Policy, dur(r.Timeout), figures)
		if own.Verdict != HeadroomUnknown {
			msg += fmt.Sprintf("; %s to spare", ms(own.Spare))
		}
		if slow := r.tooSlowFor(opts.Timeouts); len(slow) > 0 {
			msg += "; too slow for " + strings.Join(slow, ", ")
		}
		return GatePass, GateWithinTimeout, msg
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
	return GateFail, GatePastTimeout, fmt.Sprintf("%d of %s that reached the handler waited past %s's %s timeout (%s; %s): the provider gave up and will deliver again while the handler still works",
		own.Over, counted(r.HandlerArrivals, "attempt", "attempts"), r.Policy, dur(r.Timeout), strings.Join(parts, ", "), figures)
}

func checkForgedAccepted(r *Run, _ GateOptions) (GateStatus, GateReason, string) {
	switch r.SignatureCheck() {
	case SignatureEnforced:
		return GatePass, GateReason(SigTested), strings.TrimPrefix(r.SignatureLine(), "✓ ")
	case SignatureNotEnforced:
		return GateFail, GateAttackThrough, strings.TrimPrefix(r.SignatureLine(), "✗ ")
	}
	return GateUnknown, GateReason(r.sigReason().Code), "cannot be checked: " + strings.TrimPrefix(r.SignatureLine(), "not tested: ")
}

func checkRedirects(r *Run, _ GateOptions) (GateStatus, GateReason, string) {
	n := r.Outcomes[simulator.Redirect]
	if n == 0 {
		return GatePass, GateNoRedirect, "no delivery failed on a redirect"
	}
	return GateFail, GateRedirected, fmt.Sprintf("%s failed because the endpoint answered with a redirect (3xx) that %s does not follow: configure the final URL (scheme, host, trailing slash) at the provider", counted(n, "attempt", "attempts"), r.Provider)
}

func checkTTL(r *Run, opts GateOptions) (GateStatus, GateReason, string) {
	ttl := opts.TTLConfigured
	if ttl <= 0 {
		return GateUnknown, GateNoTTL, "cannot be checked: give the dedup TTL your handler uses with --ttl-configured"
	}
	a := r.TTL([]time.Duration{ttl})
	need := max(a.Window, a.Observed)
	if ttl >= need {
		return GatePass, GateTTLCovers, fmt.Sprintf("a %s TTL covers %s's %s retry window and the longest wait seen from a key to a duplicate (%s)", dur(ttl), r.Policy, dur(a.Window), dur(a.Observed))
	}
	msg := fmt.Sprintf("a %s TTL is shorter than the %s a dedup key must last (%s retries for %s; longest wait seen from a key to a duplicate %s): a retry after the key expired is processed again",
		dur(ttl), dur(need), r.Policy, dur(a.Window), dur(a.Observed))
	if leaked := a.Choices[0].LeakedArrivals; leaked > 0 {
		msg += fmt.Sprintf("; %d duplicate arrivals in this run came after it", leaked)
	}
	return GateFail, GateTTLShort, msg + fmt.Sprintf("; recommend %s", dur(a.Recommended))
}
