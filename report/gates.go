package report

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Gate is a check a CI job can fail on (`retrysim run --fail-on GATE,…`).
type Gate string

// The gates. Each is checked per run.
const (
	// GateSlowResponses fails when the handler was too slow for the run's
	// own policy: an answer measured slower than its timeout, or an attempt
	// that reached the handler and got no answer in time (see Headroom).
	// Latency a scenario injects is not the handler's and does not count.
	GateSlowResponses Gate = "slow-responses"
	// GateForgedAccepted fails when the handler let an attack through (the
	// signature check is not enforced): a 2xx to a forged, tampered,
	// unsigned or stale request, a side effect of any attack, or a
	// provider's probe answered wrongly.
	GateForgedAccepted Gate = "forged-accepted"
)

// Gates lists the gates in the order reports show them.
var Gates = []Gate{GateSlowResponses, GateForgedAccepted}

// ErrUnknownGate is returned, wrapped, by ParseGates for a name not in Gates.
var ErrUnknownGate = errors.New("unknown gate")

// GateStatus is how a gate came out.
type GateStatus string

// Gate statuses.
const (
	GatePass GateStatus = "pass"
	GateFail GateStatus = "fail"
	// GateUnknown: the gate could not be checked (nothing measured, no
	// attack answered, the run was interrupted). A CI gate that cannot be
	// checked does not pass.
	GateUnknown GateStatus = "unknown"
)

// GateResult is one gate checked against one run.
type GateResult struct {
	Gate   Gate
	Run    *Run
	Status GateStatus
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

// GateNames lists the gates, comma-separated.
func GateNames() string {
	names := make([]string, len(Gates))
	for i, g := range Gates {
		names[i] = string(g)
	}
	return strings.Join(names, ", ")
}

// CheckGates checks each gate against each run (timeouts as for
// Report.Timeouts), run by run in order.
func CheckGates(runs []*Run, gates []Gate, timeouts []Timeout) []GateResult {
	var out []GateResult
	for _, r := range runs {
		for _, g := range gates {
			var status GateStatus
			var msg string
			switch g {
			case GateSlowResponses:
				status, msg = checkSlowResponses(r, timeouts)
			case GateForgedAccepted:
				status, msg = checkForgedAccepted(r)
			default:
				status, msg = GateUnknown, fmt.Sprintf("unknown gate (valid: %s)", GateNames())
			}
			if r.Interrupted && status == GatePass {
				status, msg = GateUnknown, "the run was interrupted before its end, so this cannot be vouched for: "+msg
			}
			out = append(out, GateResult{Gate: g, Run: r, Status: status, Message: msg})
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

func checkSlowResponses(r *Run, timeouts []Timeout) (GateStatus, string) {
	if !r.Measured() {
		return GateUnknown, "cannot be checked: no response time was measured (a dry run sends nothing)"
	}
	own := r.Headroom(nil)[0]
	figures := fmt.Sprintf("p99 %s, max %s", ms(r.Percentile(99)), ms(r.Percentile(100)))
	if own.Verdict == HeadroomTooSlow {
		return GateFail, fmt.Sprintf("%d of %d attempts that reached the handler waited past %s's %s timeout (%s): the provider gave up and will deliver again while the handler still works",
			own.Over, r.Answers()+r.HandlerTimeouts, r.Policy, dur(r.Timeout), figures)
	}
	msg := fmt.Sprintf("every answer came within %s's %s timeout, %s to spare (%s)", r.Policy, dur(r.Timeout), ms(own.Spare), figures)
	if slow := r.tooSlowFor(timeouts); len(slow) > 0 {
		msg += "; too slow for " + strings.Join(slow, ", ")
	}
	return GatePass, msg
}

func checkForgedAccepted(r *Run) (GateStatus, string) {
	switch r.SignatureCheck() {
	case SignatureEnforced:
		return GatePass, strings.TrimPrefix(r.SignatureLine(), "✓ ")
	case SignatureNotEnforced:
		return GateFail, strings.TrimPrefix(r.SignatureLine(), "✗ ")
	}
	return GateUnknown, "cannot be checked: " + strings.TrimPrefix(r.SignatureLine(), "not tested: ")
}
