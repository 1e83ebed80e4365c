package scenarios_test

import (
	"errors"
	"testing"

	"github.com/retrysim/retrysim/policies"
	"github.com/retrysim/retrysim/scenarios"
)

func TestBadSignature(t *testing.T) {
	const src = "faults: [{type: bad-signature, attempts: [1], every: 2}]"
	for _, provider := range []string{"stripe", "github", "twilio", "discord", "gitlab", "paypal"} {
		t.Run(provider, func(t *testing.T) {
			h := &attackHandler{}
			r := runAttack(t, provider, src, h, 4)
			checkPairs(t, r.result, 4, same(delivered))
			for _, a := range checkSent(t, r, h, scenarios.AttackBadSignature, []int{0, 2}, 1, 401) {
				got := h.requests(a.EventID)[0]
				if !errors.Is(got.Verify, policies.ErrBadSignature) {
					t.Errorf("the forged request verifies with the endpoint's secret: %v", got.Verify)
				}
				if got.Header.Get("User-Agent") == "" {
					t.Error("the forged request lacks the provider's other headers")
				}
			}
			if r.res.Attacks != 2 {
				t.Errorf("Result.Attacks %d, want 2", r.res.Attacks)
			}
		})
	}
	t.Run("a handler that checks nothing", func(t *testing.T) {
		h := &attackHandler{accept: true}
		r := runAttack(t, "stripe", src, h, 4)
		for _, a := range checkSent(t, r, h, scenarios.AttackBadSignature, []int{0, 2}, 1, 200) {
			if h.effects[a.EventID] != 1 {
				t.Errorf("the forged request's own id %s shows %d side effects, want the 1 it caused", a.EventID, h.effects[a.EventID])
			}
		}
	})
}
