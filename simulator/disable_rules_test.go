package simulator

import (
	"testing"
	"time"
)

// A backoff rule (GitLab's, scaled down) disables the endpoint for a
// while after After failures in a row, each further failure for longer,
// up to Max, and for good after ConsecutiveFailures; nothing is sent while
// it is paused, and the events due then are never sent. The same at any
// concurrency.
func TestDisableBackoff(t *testing.T) {
	pol := custom(t, "p: {base: gitlab, disable: {consecutive_failures: 8, backoff: {after: 3, first: 1m, factor: 2, max: 10m}}}", "p")
	for _, conc := range []int{1, 16} {
		res, recs := runWith(t, pol, respond(500), 200, 100*time.Minute, conc)
		end := recs[len(recs)-1]
		if res.DisabledAt.IsZero() || res.Attempts != 8 {
			t.Fatalf("concurrency %d: %d attempts, disabled at %v; want 8 attempts, then disabled for good", conc, res.Attempts, res.DisabledAt)
		}
		want := []time.Duration{time.Minute, 2 * time.Minute, 4 * time.Minute, 8 * time.Minute, 10 * time.Minute}
		if len(end.Pauses) != len(want) {
			t.Fatalf("concurrency %d: pauses %v, want %d of them", conc, end.Pauses, len(want))
		}
		for i, p := range end.Pauses {
			if got := (p[1] - p[0]).Round(time.Millisecond); got != want[i] {
				t.Errorf("concurrency %d: pause %d lasted %s, want %s", conc, i+1, got, want[i])
			}
			for _, a := range attempts(recs) {
				if at := a.Time.Sub(*recs[0].Start); at > p[0] && at < p[1] {
					t.Errorf("concurrency %d: an attempt at +%s, inside the pause %v", conc, at, p)
				}
			}
		}
		if f := fates(recs); f[FatePaused] == 0 || f[FateDisabled] == 0 {
			t.Errorf("concurrency %d: fates %v; want events never sent in the pauses, and the rest lost to the disable", conc, f)
		}
	}
}

// Svix's clock of 5 days starts only once failures 12 h apart within 24 h
// have come; Stripe's opt-in rule disables after 9 days of failures.
func TestDisableFailingForClock(t *testing.T) {
	for _, tc := range []struct {
		name   string
		doc    string
		events int
		over   time.Duration
		least  time.Duration // disabled at least this long after the first attempt
		most   time.Duration
	}{
		{"no clock start", "p: {base: svix, disable: {failing_for: 2h}}", 40, 20 * time.Hour, 2 * time.Hour, 3 * time.Hour},
		{"svix clock start", "p: {base: svix, disable: {failing_for: 2h, clock_start: {within: 24h, apart: 12h}}}", 40, 20 * time.Hour, 14 * time.Hour, 15 * time.Hour},
		{"stripe, 9 days", "p: {base: stripe-disable}", 20, 12 * 24 * time.Hour, 9 * 24 * time.Hour, 10 * 24 * time.Hour},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, recs := runWith(t, custom(t, tc.doc, "p"), respond(500), tc.events, tc.over, 8)
			if res.DisabledAt.IsZero() {
				t.Fatalf("not disabled after %d attempts", res.Attempts)
			}
			since := res.DisabledAt.Sub(attempts(recs)[0].Time)
			if since < tc.least || since > tc.most {
				t.Errorf("disabled %s after the first attempt, want %s to %s", since, tc.least, tc.most)
			}
		})
	}
}
