package report

// The words of a handler that redirected deliveries off this machine,
// where retrysim refused to follow (the run's RedirectsRefused and
// RedirectRefusedTo say how often and where to), or to where the provider
// followed and no connection could be made (RedirectUnreachedTo).

import (
	"fmt"

	"github.com/retrysim/retrysim/simulator"
)

// refusedRedirectChange is what to change: where to answer, or the setting
// that lets retrysim follow.
func (w words) refusedRedirectChange() string {
	return "answer at the URL you gave, or pass " + w.of(simulator.SettingAllowRemote) + " to let retrysim follow it"
}

// refusedRedirectAdvice is the line of "what to change" for the n
// deliveries the handler redirected off this machine.
func (w words) refusedRedirectAdvice(r *Summary, n int) string {
	return fmt.Sprintf("your handler answered %s with a redirect to %s, which %s would follow but retrysim refused to reach: it is not a loopback address, so %s: %s",
		ofDeliveries(r, n), r.RedirectRefusedTo, r.Provider, plural(n, "that delivery failed", "those deliveries failed"), w.refusedRedirectChange())
}

// refusedRedirectHint is the short form, after a verdict.
func (w words) refusedRedirectHint(r *Summary) string {
	return fmt.Sprintf("it redirected to %s, which retrysim refused to reach (not a loopback address): %s", r.RedirectRefusedTo, w.refusedRedirectChange())
}

// refusedRedirectCause is why the provider sent again, among the causes.
func refusedRedirectCause(r *Summary) string {
	return fmt.Sprintf("%d× your handler redirected to %s, which retrysim refused to reach (redirect)", r.RefusedRedirectArrivals, r.RedirectRefusedTo)
}

// unreachedRedirectAdvice is the line of "what to change" for the n
// deliveries the handler redirected to where no connection could be made.
func unreachedRedirectAdvice(r *Summary, n int) string {
	return fmt.Sprintf("your handler answered %s with a redirect to %s, which %s followed, and no connection could be made there, so %s: %s",
		ofDeliveries(r, n), r.RedirectUnreachedTo, r.Provider, plural(n, "that delivery failed", "those deliveries failed"), unreachedRedirectChange)
}

// unreachedRedirectChange is what to change when a redirect led nowhere.
const unreachedRedirectChange = "answer at the URL you gave, or serve where the redirect leads"

// unreachedRedirectHint is the short form, after a verdict.
func unreachedRedirectHint(r *Summary) string {
	return fmt.Sprintf("it redirected to %s, where no connection could be made: %s", r.RedirectUnreachedTo, unreachedRedirectChange)
}

// unreachedRedirectCause is why the provider sent again after a redirect
// it followed to where no connection could be made, among the causes: the
// request never got there, so no connection broke after it was sent.
func unreachedRedirectCause(r *Summary) string {
	return fmt.Sprintf("%d× your handler redirected to %s, which did not accept the connection: the request was never sent there (connection_failed)", r.UnreachedRedirectArrivals, r.RedirectUnreachedTo)
}

// unreachedRedirectGate is the redirects gate's message when it passed
// though deliveries failed where a redirect the provider followed led:
// the gate is about redirects the provider does not follow, and those
// failures are not that.
func unreachedRedirectGate(r *Summary) string {
	return fmt.Sprintf("no delivery failed on a redirect that %s does not follow; %s followed one to %s, where no connection could be made",
		r.Provider, counted(r.RedirectsUnreached, "attempt", "attempts"), r.RedirectUnreachedTo)
}

// refusedRedirectGate is the redirects gate's message when the only
// redirects were ones retrysim refused to follow: whether the provider
// would get anywhere by following them is not known.
func (w words) refusedRedirectGate(r *Summary) string {
	return fmt.Sprintf("cannot be checked: your handler answered %s with a redirect to %s, which retrysim refused to reach (not a loopback address): %s",
		counted(r.RedirectsRefused, "attempt", "attempts"), r.RedirectRefusedTo, w.refusedRedirectChange())
}
