package simulator

import (
	"testing"
	"time"

	"github.com/retrysim/retrysim/policies/policytest"
	"github.com/retrysim/retrysim/scenarios/scenariotest"
)

// A provider outage whose backlog is lost sends nothing in its window and
// ends those events dropped; one whose backlog bursts sends every held
// attempt the moment it ends; a slow provider pipeline sends first
// attempts late, each by its own delay.
func TestProviderSide(t *testing.T) {
	srv := ok200(t)
	run := func(faults string, over ...time.Duration) []Record {
		t.Helper()
		cfg := Config{Policy: policytest.Lookup(t, "slack"), Scenario: scenariotest.Faults(t, faults), Events: 20, Over: time.Hour, Seed: 2, RunID: "test", URL: srv.URL}
		if len(over) > 0 {
			cfg.Over = over[0]
		}
		recs, _ := collect(t, cfg)
		return recs
	}
	t.Run("lost", func(t *testing.T) {
		recs := run("faults: [{type: provider-outage, start: 20m, duration: 20m, backlog: lost}]\n")
		dropped, sent := 0, 0
		for _, r := range recs {
			switch {
			case r.Kind == KindEvent && r.Fate == FateDropped:
				dropped++
			case r.Kind == KindAttempt:
				sent++
				if at := r.Time.Sub(recs[0].Time); at >= 20*time.Minute && at < 40*time.Minute {
					t.Errorf("an attempt was sent at +%s, inside the provider's outage", at)
				}
			}
		}
		if dropped == 0 || sent == 0 || dropped+sent != 20 {
			t.Errorf("%d events dropped, %d attempts sent; want some of each, 20 in all", dropped, sent)
		}
	})
	t.Run("burst", func(t *testing.T) {
		recs := run("faults: [{type: provider-outage, start: 20m, duration: 20m, backlog: burst}]\n")
		end := recs[0].Time.Add(40 * time.Minute)
		atEnd := 0
		for _, r := range attempts(recs) {
			if at := r.Time.Sub(recs[0].Time); at >= 20*time.Minute && at < 40*time.Minute {
				t.Errorf("an attempt was sent at +%s, inside the provider's outage", at)
			}
			if r.Time.Equal(end) {
				atEnd++
				if r.At.Seconds() <= 0 {
					t.Errorf("a held attempt says it came %gs after its event; want late", r.At.Seconds())
				}
			}
		}
		if atEnd < 3 || len(attempts(recs)) != 20 {
			t.Errorf("%d attempts at the outage's end of %d; want the held ones (about a third) at once, 20 in all", atEnd, len(attempts(recs)))
		}
	})
	t.Run("latency", func(t *testing.T) {
		// 20 events in 10 minutes, 30 s apart on average: delays of 5 s
		// to 160 s make later events overtake earlier ones.
		recs := run("faults: [{type: provider-latency, start: 0s, duration: 1h, min: 5s, max: 160s}]\n", 10*time.Minute)
		maxSeq, overtaken := -1, 0
		for _, r := range attempts(recs) {
			if r.At.Seconds() < 5 || r.At.Seconds() > 160 {
				t.Errorf("event %d arrived %gs after it happened; want 5s to 160s", r.Seq, r.At.Seconds())
			}
			if r.Seq < maxSeq {
				overtaken++ // a later event reached the handler first
			}
			maxSeq = max(maxSeq, r.Seq)
		}
		if len(attempts(recs)) != 20 || overtaken == 0 {
			t.Errorf("%d attempts, %d overtaken; want 20 (one each, late), some out of order", len(attempts(recs)), overtaken)
		}
	})
}
