package scenarios_test

import (
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/retrysim/retrysim/policies"
	"github.com/retrysim/retrysim/scenarios"
)

func TestReplayed(t *testing.T) {
	const src = "faults: [{type: replayed, attempts: [1]}]"
	t.Run("no timestamp: byte for byte, only dedup stops it", func(t *testing.T) {
		for _, dedup := range []bool{true, false} {
			h := &attackHandler{dedup: dedup}
			r := runAttack(t, "github", src, h, 2)
			for _, a := range checkSent(t, r, h, scenarios.AttackReplayed, []int{0, 1}, 1, 200) {
				got := h.requests(a.EventID)
				if len(got) != 2 || !sameBytes(got[0], got[1]) {
					t.Fatalf("the handler got %d requests for the replayed id; want the original and a byte-for-byte copy", len(got))
				}
				if a.OriginalStatus != 200 || !strings.Contains(a.Undetectable, "only dedup") {
					t.Errorf("original status %d, undetectable %q", a.OriginalStatus, a.Undetectable)
				}
				want := 2
				if dedup {
					want = 1
				}
				if h.effects[a.EventID] != want {
					t.Errorf("dedup %t: %d side effects on the replayed id, want %d", dedup, h.effects[a.EventID], want)
				}
			}
		}
	})
	t.Run("timestamp: the copy is stale", func(t *testing.T) {
		h := &attackHandler{}
		r := runAttack(t, "stripe", src, h, 2)
		w, _ := policies.WireFor("stripe")
		for _, a := range checkSent(t, r, h, scenarios.AttackReplayed, []int{0, 1}, 1, 401) {
			got := h.requests(a.EventID)
			if len(got) != 2 || got[0].Verify != nil || !errors.Is(got[1].Verify, policies.ErrBadSignature) {
				t.Fatalf("want a valid original and a rejected copy, got %d requests", len(got))
			}
			if string(got[0].Body) != string(got[1].Body) {
				t.Error("the copy's body differs from the original's")
			}
			t0, t1 := stripeTime(t, got[0].Header.Get("Stripe-Signature")), stripeTime(t, got[1].Header.Get("Stripe-Signature"))
			if d := t0.Sub(t1); d < 6*time.Minute || d > 6*time.Minute+5*time.Second {
				t.Errorf("the copy's signature is %s older than the original's, want the 5m tolerance and a minute", d)
			}
			if err := w.Verify(got[1].Header, got[1].Body, got[1].URL, testSecret, t1); err != nil {
				t.Errorf("as of its own time the copy verifies: %v", err)
			}
			if a.OriginalStatus != 200 || a.Undetectable != "" {
				t.Errorf("original status %d, undetectable %q; want 200 and detectable", a.OriginalStatus, a.Undetectable)
			}
		}
	})
}

func stripeTime(t *testing.T, sig string) time.Time {
	t.Helper()
	for _, part := range strings.Split(sig, ",") {
		if v, ok := strings.CutPrefix(part, "t="); ok {
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return time.Unix(n, 0)
		}
	}
	t.Fatalf("no t= in %q", sig)
	return time.Time{}
}
