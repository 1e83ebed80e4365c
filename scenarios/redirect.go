package scenarios

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/retrysim/retrysim/policies"
)

// redirect: the endpoint moved (http to https, a new host, a trailing
// slash) and the old address answers with a redirect. The provider's
// redirect rule decides: Stripe, GitHub, Shopify and most others count any
// 3xx as a failed delivery (outcome redirect, handler not reached); Slack
// follows up to two redirects and reaches the handler, unless the chain is
// longer (hops).
//
//	type: redirect
//	status: 308   # or 301, 302, 303, 307
//	hops: 1       # optional (1..20): redirects before the handler
type redirect struct {
	Status int `yaml:"status"`
	// Hops is nil when not given (one redirect); a given 0 is an error.
	Hops *int `yaml:"hops"`
}

func init() { Register("redirect", func() Kind { return &redirect{} }) }

func (r *redirect) Apply(a *Action, _ *Context) {
	a.Redirect = r.Status
	a.RedirectHops = 1
	if r.Hops != nil {
		a.RedirectHops = *r.Hops
	}
}

func (r *redirect) Validate() []error {
	var errs []error
	if !policies.IsRedirect(r.Status) {
		errs = append(errs, fmt.Errorf("status: %d is not a redirect status (valid: %s)", r.Status, redirectList()))
	}
	if r.Hops != nil && (*r.Hops < 1 || *r.Hops > 20) {
		errs = append(errs, fmt.Errorf("hops: %d is out of range (1..20)", *r.Hops))
	}
	return errs
}

// redirectList is the redirect statuses as a validation error lists them:
// "301, 302, 303, 307, 308".
func redirectList() string {
	var out []string
	for _, s := range policies.RedirectStatuses() {
		out = append(out, strconv.Itoa(s))
	}
	return strings.Join(out, ", ")
}
