package scenarios_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/retrysim/retrysim/policies"
	"github.com/retrysim/retrysim/scenarios"
)

func TestStaleTimestamp(t *testing.T) {
	const src = "faults: [{type: stale-timestamp, attempts: [1]}]"
	for _, provider := range []string{"stripe", "slack", "standard-webhooks", "svix"} {
		t.Run(provider, func(t *testing.T) {
			h := &attackHandler{}
			r := runAttack(t, provider, src, h, 2)
			w, _ := policies.WireFor(provider)
			scheme, _ := policies.SchemeOf(w)
			for _, a := range checkSent(t, r, h, scenarios.AttackStaleTimestamp, []int{0, 1}, 1, 401) {
				got := h.requests(a.EventID)[0]
				if !errors.Is(got.Verify, policies.ErrBadSignature) {
					t.Errorf("a stale request verifies now: %v", got.Verify)
				}
				// As of a minute past the tolerance ago the same request was
				// valid: the signature is right, only its age is wrong.
				then := time.Now().Add(-scheme.Tolerance - time.Minute)
				if err := w.Verify(got.Header, got.Body, got.URL, testSecret, then); err != nil {
					t.Errorf("the stale request was not validly signed as of %s ago: %v", scheme.Tolerance+time.Minute, err)
				}
			}
		})
	}
	// Schemes that sign no timestamp: nothing is sent, and the run says why
	// once.
	for _, provider := range []string{"github", "shopify", "twilio", "gitlab", "paypal"} {
		t.Run(provider, func(t *testing.T) {
			h := &attackHandler{}
			r := runAttack(t, provider, src, h, 2)
			if len(r.sent()) != 0 || len(h.got) != 2 {
				t.Errorf("%d attack requests sent, handler got %d requests; want none beyond the 2 deliveries", len(r.sent()), len(h.got))
			}
			if len(r.attacks) != 1 || !strings.Contains(r.attacks[0].NotApplicable, "signs no timestamp") {
				t.Errorf("attack records %+v, want one saying the scheme signs no timestamp", r.attacks)
			}
		})
	}
	// Schemes that sign a timestamp whose provider documents no bound on
	// its age (Discord, Zoom): a stale signature is no forgery to the
	// provider's own libraries, so nothing is sent, and the run says so.
	for _, provider := range []string{"discord", "discord-events", "zoom"} {
		t.Run(provider, func(t *testing.T) {
			h := &attackHandler{}
			r := runAttack(t, provider, src, h, 2)
			if len(r.sent()) != 0 {
				t.Errorf("%d stale-timestamp requests sent to %s, which documents no bound", len(r.sent()), provider)
			}
			if len(r.attacks) != 1 || !strings.Contains(r.attacks[0].NotApplicable, "documents no bound") {
				t.Errorf("attack records %+v, want one saying %s documents no bound", r.attacks, provider)
			}
		})
	}
}
