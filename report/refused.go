package report

import (
	"slices"
)

// The commonest set-up mistakes show as a handler that turns every
// delivery away: a wrong secret answers 400, 401 or 403, a wrong path 404 or
// 405. Such a run delivers nothing and tests nothing, and the report says
// what to check rather than how to handle duplicates.

// refusedWith counts the deliveries the handler answered with one of
// codes, and names the codes it used, most used first.
func (r *Summary) refusedWith(codes ...int) (n int, used []int) {
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
func (r *Summary) mostly(n int) bool { return n > 0 && 2*n > r.HandlerArrivals }

// refusalKind is what a handler's refusals point at.
type refusalKind int

const (
	// refusedAuth: most deliveries were answered 400, 401 or 403, as by a
	// signature check with the wrong secret.
	refusedAuth refusalKind = iota + 1
	// refusedPath: most deliveries were answered 404 or 405, as by a
	// handler not serving the path.
	refusedPath
	// refusedAll: the handler accepted none of the deliveries, and its
	// answers point at no set-up mistake.
	refusedAll
	// refusedRedirect: the handler answered deliveries with a redirect the
	// provider follows, off this machine, where retrysim refused to go.
	refusedRedirect
	// unreachedRedirect: the handler answered deliveries with a redirect
	// the provider followed, to where no connection could be made.
	unreachedRedirect
)

// refusal is one thing a handler's refusals point at: how many deliveries
// were answered with which codes.
type refusal struct {
	kind  refusalKind
	n     int
	codes []int
}

// refusals says what the handler's refusals point at, the likeliest
// set-up mistake first; none when it accepted deliveries.
func (r *Summary) refusals() []refusal {
	var out []refusal
	if n := r.RedirectsRefused; n > 0 {
		// Said whenever it happened: it is why those deliveries failed.
		out = append(out, refusal{kind: refusedRedirect, n: n})
	}
	if n := r.RedirectsUnreached; n > 0 {
		out = append(out, refusal{kind: unreachedRedirect, n: n})
	}
	explained := r.mostly(r.RedirectsRefused + r.RedirectsUnreached)
	if n, codes := r.refusedWith(authCodes...); r.mostly(n) {
		out = append(out, refusal{refusedAuth, n, codes})
		explained = true
	}
	if n, codes := r.refusedWith(404, 405); r.mostly(n) {
		out = append(out, refusal{refusedPath, n, codes})
		explained = true
	}
	if !explained && r.HandlerArrivals > 0 && r.HandlerDelivered == 0 && !r.Modelled() {
		out = append(out, refusal{kind: refusedAll, n: r.HandlerArrivals})
	}
	return out
}

// authCodes are the answers of a handler whose signature check failed: 401
// and 403, and 400, which Stripe's own sample code answers.
var authCodes = []int{400, 401, 403}
