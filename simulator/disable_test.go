package simulator

import (
	"net/http"
	"testing"
	"time"

	"github.com/retrysim/retrysim/policies"
	"github.com/retrysim/retrysim/policies/policytest"
)

// TestDisableRules: each form of the endpoint-disable rule fires when it
// should, no attempt is sent after the moment it fires, and the timeline is
// the same at any concurrency.
func TestDisableRules(t *testing.T) {
	tests := []struct {
		name     string
		doc      string // custom policy "p"
		policy   string // or a catalogue policy
		h        http.Handler
		events   int
		over     time.Duration
		disabled bool
		attempts int           // when disabled: attempts made, 0 to skip
		after    time.Duration // when disabled: at least this long after the first attempt
	}{
		{name: "consecutive", policy: "shopify-2024", h: respond(500), events: 10, over: time.Minute, disabled: true, attempts: 8},
		{name: "consecutive, a success resets", policy: "gitlab", h: respond(200), events: 50, over: time.Minute},
		{name: "failure rate", doc: "p: {base: slack, disable: {failure_rate: 0.5, within: 10m, min_attempts: 6}}", h: respond(500), events: 5, over: time.Minute, disabled: true, attempts: 6},
		{name: "failure rate, under the volume floor", policy: "slack", h: respond(500), events: 20, over: time.Hour},
		{name: "failing for", doc: "p: {base: svix, disable: {failing_for: 2h}}", h: respond(500), events: 6, over: time.Hour, disabled: true, after: 2 * time.Hour},
		{name: "failing for, not long enough", doc: "p: {base: svix, schedule: {delays: [5s, 5m]}, disable: {failing_for: 2h}}", h: respond(500), events: 6, over: time.Hour},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			pol := func() (p policies.Policy) {
				if tc.doc != "" {
					return custom(t, tc.doc, "p")
				}
				return policytest.Lookup(t, tc.policy)
			}()
			var first []Record
			for _, conc := range []int{1, 32} {
				res, recs := runWith(t, pol, tc.h, tc.events, tc.over, conc)
				if got := !res.DisabledAt.IsZero(); got != tc.disabled {
					t.Fatalf("concurrency %d: disabled %v, want %v (%d attempts)", conc, got, tc.disabled, res.Attempts)
				}
				as := attempts(recs)
				if tc.disabled {
					for _, a := range as {
						if a.Time.After(res.DisabledAt) {
							t.Errorf("concurrency %d: attempt at %s after the endpoint was disabled at %s", conc, a.Time, res.DisabledAt)
						}
					}
					if tc.attempts > 0 && res.Attempts != tc.attempts {
						t.Errorf("concurrency %d: %d attempts before disabling, want %d", conc, res.Attempts, tc.attempts)
					}
					if since := res.DisabledAt.Sub(as[0].Time); since < tc.after {
						t.Errorf("disabled %s after the first attempt, want at least %s", since, tc.after)
					}
					if recs[len(recs)-1].DisabledBy == "" {
						t.Error("the end record does not say what disabled the endpoint")
					}
				}
				if first == nil {
					first = as
					continue
				}
				if len(as) != len(first) {
					t.Fatalf("concurrency %d made %d attempts, concurrency 1 made %d", conc, len(as), len(first))
				}
				for i := range as {
					if as[i].EventID != first[i].EventID || as[i].Attempt != first[i].Attempt || !as[i].Time.Equal(first[i].Time) {
						t.Fatalf("attempt %d differs between concurrency 1 and %d", i, conc)
					}
				}
			}
		})
	}
}

// TestDisablerFullIsConservative: the disabler never lets the scheduler send
// past an attempt that could fire the rule.
func TestDisablerFullIsConservative(t *testing.T) {
	pol := custom(t, "p: {base: slack, disable: {failure_rate: 0.5, within: 10m, min_attempts: 4}}", "p")
	d := newDisabler(&pol)
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range 3 {
		d.record(t0.Add(time.Duration(i)*time.Second), false)
	}
	// 3 successes in the window: 4 failures would make 4/7, over 0.5.
	for k := 1; k <= 4; k++ {
		full := d.full(k, t0.Add(5*time.Second), t0.Add(6*time.Second))
		if full != (k >= 4) {
			t.Errorf("%d unapplied: full %v", k, full)
		}
	}
	// Once the successes leave the window, one failure can fire it.
	if !d.full(1, t0.Add(20*time.Minute), t0.Add(20*time.Minute)) {
		// count 3+1 = 4 ≥ min, fails 1 > 0.5·1
		t.Error("an attempt after the successes left the window is not full at 1")
	}
}
