package policies

import (
	"testing"
	"time"
)

// GitLab's backoff: 1 min after the 4th failure in a row, doubling with
// each further one, 24 h from the 15th on (1 min × 2^11 is past it).
func TestBackoffPause(t *testing.T) {
	p, err := Lookup("gitlab")
	if err != nil {
		t.Fatal(err)
	}
	b := p.Disable.Backoff
	for streak, want := range map[int]time.Duration{
		4: time.Minute, 5: 2 * time.Minute, 10: 64 * time.Minute, 14: 1024 * time.Minute, 15: 24 * time.Hour, 39: 24 * time.Hour,
	} {
		if got := b.Pause(streak); got != want {
			t.Errorf("after %d failures in a row: paused %s, want %s", streak, got, want)
		}
	}
}

func TestDisableExtrasValidate(t *testing.T) {
	for _, doc := range []string{
		"disable: {failing_for: 5d, backoff: {after: 4, first: 1m, factor: 2, max: 24h}}",
		"disable: {consecutive_failures: 4, backoff: {after: 4, first: 1m, factor: 2, max: 24h}}",
		"disable: {consecutive_failures: 40, backoff: {after: 4, first: 1m, factor: 0.5, max: 24h}}",
		"disable: {consecutive_failures: 40, clock_start: {within: 24h, apart: 12h}}",
		"disable: {failing_for: 5d, clock_start: {within: 1h, apart: 12h}}",
	} {
		src := "name: t\nprovider: gitlab\nsummary: t\nschedule: {delays: []}\ntimeout: 10s\nsource: t\nnotes: t\n" + doc
		if _, err := Decode("t.yaml", []byte(src)); err == nil {
			t.Errorf("accepted %s", doc)
		}
	}
}
