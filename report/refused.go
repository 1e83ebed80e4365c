package report

import (
	"fmt"
	"slices"

	"github.com/retrysim/retrysim/simulator"
)

// The commonest set-up mistakes show as a handler that turns every
// delivery away: a wrong secret answers 400, 401 or 403, a wrong path 404 or
// 405. Such a run delivers nothing and tests nothing, and the report says
// what to check rather than how to handle duplicates.

// refusedWith counts the deliveries the handler answered with one of
// codes, and names the codes it used, most used first.
func (r *Run) refusedWith(codes ...int) (n int, used []int) {
	for _, c := range codes {
		if k := r.HandlerStatuses[c]; k > 0 {
			n += k
			used = append(used, c)
		}
	}
	slices.SortStableFunc(used, func(a, b int) int { return r.HandlerStatuses[b] - r.HandlerStatuses[a] })
	return n, used
}

// mostly reports whether n is more than half the deliveries that reached
// the handler.
func (r *Run) mostly(n int) bool { return n > 0 && 2*n > r.HandlerArrivals }

// codeWords says "401", "401 or 403".
func codeWords(codes []int) string {
	switch len(codes) {
	case 0:
		return ""
	case 1:
		return fmt.Sprint(codes[0])
	}
	s := ""
	for i, c := range codes {
		switch {
		case i == len(codes)-1:
			s += " or "
		case i > 0:
			s += ", "
		}
		s += fmt.Sprint(c)
	}
	return s
}

// ofDeliveries says "every delivery" or "12 of 80 deliveries".
func (r *Run) ofDeliveries(n int) string {
	if n == r.HandlerArrivals {
		if n == 1 {
			return "the one delivery"
		}
		return fmt.Sprintf("all %d deliveries", n)
	}
	return fmt.Sprintf("%d of %d deliveries", n, r.HandlerArrivals)
}

// authCodes are the answers of a handler whose signature check failed: 401
// and 403, and 400, which Stripe's own sample code answers.
var authCodes = []int{400, 401, 403}

// authQuestion is what to check when the handler rejects deliveries as
// unauthenticated.
const authQuestion = "does it verify with the secret retrysim printed (or the one you passed with --secret)? Is its clock right?"

// refusalAdvice says what to check when most deliveries were turned away
// as unauthenticated or not found; nil otherwise.
func (r *Run) refusalAdvice() []string {
	var out []string
	if n, codes := r.refusedWith(authCodes...); r.mostly(n) {
		out = append(out, fmt.Sprintf("your handler rejected %s with %s: %s", r.ofDeliveries(n), codeWords(codes), authQuestion))
	}
	if n, codes := r.refusedWith(404, 405); r.mostly(n) {
		out = append(out, fmt.Sprintf("check the path in --url: your handler answered %s to %s", codeWords(codes), r.ofDeliveries(n)))
	}
	if len(out) == 0 && r.HandlerArrivals > 0 && r.HandlerDelivered == 0 && !r.Modelled() {
		out = append(out, fmt.Sprintf("your handler accepted none of the %s (%s): it fails on every request, so look at its log; nothing can be tested until it answers 2xx", r.deliveries(), r.answerList()))
	}
	return out
}

// refusalHint is the short form of refusalAdvice for a verdict line: what
// to check, or "" when the answers point at no set-up mistake.
func (r *Run) refusalHint() string {
	if n, _ := r.refusedWith(authCodes...); r.mostly(n) {
		return authQuestion
	}
	if n, _ := r.refusedWith(404, 405); r.mostly(n) {
		return "check the path in --url"
	}
	return ""
}

// answerList shows the handler's answers to the deliveries by status, with
// the attempts it did not answer in time: "401 ×80", "500 ×3, no answer ×2".
func (r *Run) answerList() string {
	s := statusList(r.HandlerStatuses)
	if r.HandlerTimeouts > 0 {
		t := fmt.Sprintf("no answer within %s ×%d", dur(r.Timeout), r.HandlerTimeouts)
		if len(r.HandlerStatuses) == 0 {
			return t
		}
		s += ", " + t
	}
	return s
}

// deliveries says "the 80 deliveries" that reached the handler, or "the
// one delivery".
func (r *Run) deliveries() string {
	if r.HandlerArrivals == 1 {
		return "one delivery"
	}
	return fmt.Sprintf("%d deliveries", r.HandlerArrivals)
}

// tlsAdvice says what failed when no connection got past its TLS
// handshake, and what to do about it.
func tlsAdvice(r *Run) string {
	what := "the TLS handshake failed"
	switch r.TLSProblem {
	case simulator.TLSUnknownAuthority:
		what = "its certificate is signed by an authority this machine does not trust (self-signed, or a private CA)"
	case simulator.TLSWrongName:
		what = "its certificate is not for the host in the URL (a wrong name)"
	case simulator.TLSInvalid:
		what = "its certificate was refused (expired, not yet valid, or not for serving)"
	}
	return fmt.Sprintf("no request got past TLS at %s (%d %s): %s; trust its CA with --ca FILE, or skip the check with --insecure on a test machine",
		r.Target, r.TLSFailures, plural(r.TLSFailures, "attempt", "attempts"), what)
}
