package scenarios_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/retrysim/retrysim/policies"
	"github.com/retrysim/retrysim/scenarios"
)

// changedFrom reads "X changed from A to B" out of an attack's detail.
var changedFrom = regexp.MustCompile(`^"([^"]+)" changed from (\S+) to (\S+) after signing$`)

func TestTamperedBody(t *testing.T) {
	t.Run("value", func(t *testing.T) {
		for _, provider := range []string{"stripe", "github", "shopify", "slack", "zoom", "paypal"} {
			t.Run(provider, func(t *testing.T) {
				h := &attackHandler{}
				r := runAttack(t, provider, "faults: [{type: tampered-body, change: value, attempts: [1]}]", h, 2)
				w, _ := policies.WireFor(provider)
				for _, a := range checkSent(t, r, h, scenarios.AttackTamperedBody, []int{0, 1}, 1, 401) {
					got := h.requests(a.EventID)[0]
					m := changedFrom.FindStringSubmatch(a.AttackDetail)
					if m == nil {
						t.Fatalf("detail %q does not say what changed", a.AttackDetail)
					}
					// Putting the old value back gives the request as signed.
					field := `"` + m[1] + `":`
					restored := bytes.Replace(got.Body, []byte(field+m[3]), []byte(field+m[2]), 1)
					if bytes.Equal(restored, got.Body) {
						t.Fatalf("the body does not hold %s%s", field, m[3])
					}
					if err := w.Verify(got.Header, restored, got.URL, testSecret, time.Now()); err != nil {
						t.Errorf("with %s put back the request does not verify: %v; more than the one value changed", m[2], err)
					}
					if !errors.Is(got.Verify, policies.ErrBadSignature) {
						t.Errorf("the tampered request verifies: %v", got.Verify)
					}
				}
			})
		}
	})
	t.Run("spacing", func(t *testing.T) {
		h := &attackHandler{}
		r := runAttack(t, "stripe", "faults: [{type: tampered-body, change: spacing, attempts: [1]}]", h, 2)
		w, _ := policies.WireFor("stripe")
		for _, a := range checkSent(t, r, h, scenarios.AttackTamperedBody, []int{0, 1}, 1, 401) {
			got := h.requests(a.EventID)[0]
			var compact bytes.Buffer
			if err := json.Compact(&compact, got.Body); err != nil {
				t.Fatal(err)
			}
			if bytes.Equal(compact.Bytes(), got.Body) {
				t.Fatal("the body is not re-spaced")
			}
			if err := w.Verify(got.Header, compact.Bytes(), got.URL, testSecret, time.Now()); err != nil {
				t.Errorf("compacted again, the body does not verify: %v; more than the spacing changed", err)
			}
		}
	})
	t.Run("twilio signs parameters", func(t *testing.T) {
		h := &attackHandler{}
		r := runAttack(t, "twilio", "faults: [{type: tampered-body, change: spacing, attempts: [1]}, {type: tampered-body, change: value, attempts: [1]}]", h, 2)
		checkSent(t, r, h, scenarios.AttackTamperedBody, []int{0, 1}, 1, 401)
		if len(r.attacks) != 3 || r.attacks[0].AttackChange != "spacing" || !strings.Contains(r.attacks[0].NotApplicable, "signs the decoded form parameters") {
			t.Errorf("records %+v: want spacing announced as pointless for twilio, then one value change per event", r.attacks)
		}
	})
	t.Run("zoom's SDK signs the parsed JSON", func(t *testing.T) {
		// Rivet checks the signature over JSON.stringify of the parsed body:
		// a re-spaced body is the same JSON to it, and no forgery.
		h := &attackHandler{}
		r := runAttack(t, "zoom", "faults: [{type: tampered-body, change: spacing, attempts: [1]}, {type: tampered-body, change: value, attempts: [1]}]", h, 2)
		if len(r.attacks) != 3 || r.attacks[0].AttackChange != "spacing" || !strings.Contains(r.attacks[0].NotApplicable, "parsed JSON written out again") {
			t.Errorf("records %+v: want spacing announced as pointless for zoom, then one value change per event", r.attacks)
		}
	})
	t.Run("drawn where spacing means nothing", func(t *testing.T) {
		h := &attackHandler{}
		r := runAttack(t, "twilio", "faults: [{type: tampered-body, attempts: [1]}]", h, 6)
		for _, a := range checkSent(t, r, h, scenarios.AttackTamperedBody, []int{0, 1, 2, 3, 4, 5}, 1, 401) {
			if a.AttackChange != scenarios.ChangeValue {
				t.Errorf("change %q for twilio, want value", a.AttackChange)
			}
		}
	})
	t.Run("gitlab signs nothing", func(t *testing.T) {
		h := &attackHandler{}
		r := runAttack(t, "gitlab", "faults: [{type: tampered-body, attempts: [1]}]", h, 2)
		if len(r.sent()) != 0 || len(r.attacks) != 1 || !strings.Contains(r.attacks[0].NotApplicable, "signs nothing") {
			t.Errorf("records %+v: want one saying gitlab signs nothing, and nothing sent", r.attacks)
		}
	})
}
