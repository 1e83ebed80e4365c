package simulator

import "testing"

// A redirect ends the attempt only for a provider that does not follow
// that many: Stripe follows none, Slack two.
func TestUnfollowedRedirect(t *testing.T) {
	r := faultAttempt(t, "stripe", "{type: redirect, status: 308}", "")
	if r.Outcome != Redirect || r.Status != 308 || r.Reached || r.Error != "308 from the endpoint's old address (injected); stripe follows 0 redirect(s), 1 were needed" {
		t.Errorf("stripe: outcome %s, status %d, reached %v, error %q", r.Outcome, r.Status, r.Reached, r.Error)
	}
	r = faultAttempt(t, "slack", "{type: redirect, status: 301, hops: 2}", "")
	if r.Outcome != Delivered || !r.Reached {
		t.Errorf("slack, 2 hops: outcome %s, reached %v; want delivered to the handler", r.Outcome, r.Reached)
	}
	r = faultAttempt(t, "slack", "{type: redirect, status: 301, hops: 3}", "")
	if r.Outcome != Redirect || r.Reached {
		t.Errorf("slack, 3 hops: outcome %s, reached %v; want a redirect short of the handler", r.Outcome, r.Reached)
	}
}
