package scenarios_test

import (
	"errors"
	"testing"

	"github.com/retrysim/retrysim/policies"
	"github.com/retrysim/retrysim/scenarios"
)

func TestMissingSignature(t *testing.T) {
	for _, provider := range []string{"stripe", "github", "shopify", "slack", "standard-webhooks", "gitlab"} {
		t.Run(provider, func(t *testing.T) {
			h := &attackHandler{}
			r := runAttack(t, provider, "faults: [{type: missing-signature, attempts: [2]}]", h, 3)
			w, _ := policies.WireFor(provider)
			scheme, _ := policies.SchemeOf(w)
			for _, a := range checkSent(t, r, h, scenarios.AttackMissingSignature, nil, 2, 0) {
				t.Errorf("sent beside attempt %d of event %d, but every attempt 1 was delivered", a.Attempt, a.Seq)
			}
			// Every first attempt failing, each event's second attempt
			// carries the attack.
			h2 := &attackHandler{}
			r = runAttack(t, provider, "faults: [{type: fail-attempts, first: 1, status: 503}, {type: missing-signature, attempts: [2]}]", h2, 3)
			for _, a := range checkSent(t, r, h2, scenarios.AttackMissingSignature, []int{0, 1, 2}, 2, 401) {
				got := h2.requests(a.EventID)[0]
				for _, hd := range scheme.Headers {
					if got.Header.Get(hd) != "" {
						t.Errorf("%s is still there", hd)
					}
				}
				if !errors.Is(got.Verify, policies.ErrBadSignature) {
					t.Errorf("an unsigned request verifies: %v", got.Verify)
				}
				if id, err := w.DedupID(got.Header, got.Body); err != nil || id != a.EventID {
					t.Errorf("the unsigned request's dedup id %q (%v), want %s: the rest of the request must stay the provider's", id, err, a.EventID)
				}
			}
		})
	}
}
