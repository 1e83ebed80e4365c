package report

// The words of a handler that turned the deliveries away (refused.go
// decides what its answers point at).

import (
	"fmt"

	"github.com/retrysim/retrysim/simulator"
)

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
func ofDeliveries(r *Summary, n int) string {
	if n == r.HandlerArrivals {
		if n == 1 {
			return "the one delivery"
		}
		return fmt.Sprintf("all %d deliveries", n)
	}
	return fmt.Sprintf("%d of %d deliveries", n, r.HandlerArrivals)
}

// authQuestion is what to check when the handler rejects deliveries as
// unauthenticated.
func (w words) authQuestion() string {
	return "does it verify with the secret retrysim printed (or the one you passed with " + w.of(simulator.SettingSecret) + ")? Is its clock right?"
}

// pathAdvice is what to check when the handler answers "not found": the
// path, or the object the events are about, which a handler that looks it
// up does not know.
func (w words) pathAdvice() string {
	return "check the path in " + w.of(simulator.SettingURL) + ", or send events about an object your handler knows (" + w.of(simulator.SettingPayloads) + ")"
}

// refusalAdvice says what to check when most deliveries were turned away
// as unauthenticated or not found; nil otherwise.
func (w words) refusalAdvice(r *Summary) []string {
	var out []string
	for _, f := range r.refusals() {
		switch f.kind {
		case refusedAuth:
			out = append(out, fmt.Sprintf("your handler rejected %s with %s: %s", ofDeliveries(r, f.n), codeWords(f.codes), w.authQuestion()))
		case refusedPath:
			out = append(out, fmt.Sprintf("%s: your handler answered %s to %s", w.pathAdvice(), codeWords(f.codes), ofDeliveries(r, f.n)))
		case refusedAll:
			out = append(out, fmt.Sprintf("your handler accepted none of the %s (%s): it fails on every request, so look at its log; nothing can be tested until it answers 2xx", deliveries(r), answerList(r)))
		case refusedRedirect:
			out = append(out, w.refusedRedirectAdvice(r, f.n))
		case unreachedRedirect:
			out = append(out, unreachedRedirectAdvice(r, f.n))
		}
	}
	return out
}

// refusalHint is the short form of refusalAdvice for a verdict line: what
// to check, or "" when the answers point at no set-up mistake.
func (w words) refusalHint(r *Summary) string {
	for _, f := range r.refusals() {
		switch f.kind {
		case refusedAuth:
			return w.authQuestion()
		case refusedPath:
			return w.pathAdvice()
		case refusedRedirect:
			if r.mostly(f.n) {
				return w.refusedRedirectHint(r)
			}
		case unreachedRedirect:
			if r.mostly(f.n) {
				return unreachedRedirectHint(r)
			}
		}
	}
	return ""
}

// answerList shows the handler's answers to the deliveries by status, with
// the attempts it did not answer in time: "401 ×80", "500 ×3, no answer ×2".
func answerList(r *Summary) string {
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
func deliveries(r *Summary) string {
	if r.HandlerArrivals == 1 {
		return "one delivery"
	}
	return fmt.Sprintf("%d deliveries", r.HandlerArrivals)
}

// tlsAdvice says what failed when no connection got past its TLS
// handshake, and what to do about it.
func (w words) tlsAdvice(r *Summary) string {
	what := "the TLS handshake failed"
	switch r.TLSProblem {
	case simulator.TLSUnknownAuthority:
		what = "its certificate is signed by an authority this machine does not trust (self-signed, or a private CA)"
	case simulator.TLSWrongName:
		what = "its certificate is not for the host in the URL (a wrong name)"
	case simulator.TLSInvalid:
		what = "its certificate was refused (expired, not yet valid, or not for serving)"
	}
	return fmt.Sprintf("no request got past TLS at %s (%d %s): %s; trust its CA with %s, or skip the check with %s on a test machine",
		r.Target, r.TLSFailures, plural(r.TLSFailures, "attempt", "attempts"), what, w.of(simulator.SettingTrustCA), w.of(simulator.SettingInsecure))
}
