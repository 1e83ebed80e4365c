package simulator

import (
	"fmt"

	"github.com/retrysim/retrysim/scenarios"
)

// unfollowedRedirect: the endpoint's old address answers with a redirect
// (redirect) and the chain is longer than the provider follows, so the
// attempt ends there. A provider that follows enough redirects reaches the
// handler as if there were none.
type unfollowedRedirect struct{ noEffect }

func (unfollowedRedirect) before(e *engine, act *scenarios.Action, o *outcome) bool {
	p := &e.cfg.Policy
	if act.Redirect == 0 || act.RedirectHops <= p.FollowRedirects {
		return false
	}
	o.outcome, o.status = Redirect, act.Redirect
	o.err = fmt.Sprintf("%d from the endpoint's old address (injected); %s follows %d redirect(s), %d were needed", act.Redirect, p.Name, p.FollowRedirects, act.RedirectHops)
	return true
}
