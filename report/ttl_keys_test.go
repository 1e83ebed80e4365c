package report

import (
	"testing"
	"time"

	"github.com/retrysim/retrysim/policies"
	"github.com/retrysim/retrysim/simulator"
)

// feeder returns an Aggregator and a function that adds records of one run
// (policy p, scenario s, seed 1) to it, failing the test on an error.
func feeder(t *testing.T) (*Aggregator, func(simulator.Record)) {
	t.Helper()
	a := NewAggregator()
	return a, func(r simulator.Record) {
		t.Helper()
		r.Policy, r.Scenario, r.Seed = "p", "s", 1
		if err := a.Add(&r); err != nil {
			t.Fatal(err)
		}
	}
}

func TestRoundTTL(t *testing.T) {
	day := policies.Day
	tests := []struct {
		need, want time.Duration
	}{
		{0, time.Minute},
		{30 * time.Second, 2 * time.Minute},                // +1m minimum buffer
		{5*time.Minute + 31*time.Second, 10 * time.Minute}, // Slack's 5m31s
		{8 * time.Hour, 12 * time.Hour},                    // 8h +10% = 8h48m
		{48 * time.Hour, 3 * day},                          // Shopify's 2d +10%
		{72 * time.Hour, 4 * day},                          // Stripe's 3d +10%
		{30 * day, 45 * day},                               // Stripe's CLI resend window
		{100 * day, 120 * day},                             // past the ladder: whole 30-day months
	}
	for _, tt := range tests {
		if got := RoundTTL(tt.need); got != tt.want {
			t.Errorf("RoundTTL(%s) = %s, want %s", policies.FormatDuration(tt.need), policies.FormatDuration(got), policies.FormatDuration(tt.want))
		}
	}
}

// records builds one run's stream from arrivals: for each event, the virtual
// offsets of attempts and what the handler answered.
func records(t *testing.T, window time.Duration, events map[int][]struct {
	at      time.Duration
	outcome simulator.Outcome
	handler int
}) *Summary {
	t.Helper()
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	a, add := feeder(t)
	add(simulator.Record{Kind: simulator.KindRun, RunFacts: simulator.RunFacts{Start: &start, Window: window, Events: len(events)}})
	for seq := 0; seq < len(events); seq++ {
		first := start.Add(time.Duration(seq) * time.Minute)
		for n, at := range events[seq] {
			add(simulator.Record{Kind: simulator.KindAttempt, Seq: seq, EventID: string(rune('a' + seq)), Attempt: n + 1, Time: first.Add(at.at), At: time.Duration((at.at.Seconds()) * float64(time.Second)), Answer: simulator.Answer{HandlerStatus: at.handler, Reached: at.handler != 0}, AttemptFacts: simulator.AttemptFacts{Outcome: at.outcome}})
		}
		add(simulator.Record{Kind: simulator.KindEvent, Seq: seq, EventFacts: simulator.EventFacts{Fate: simulator.FateDelivered}})
	}
	add(simulator.Record{Kind: simulator.KindEnd})
	return a.Runs()[0]
}

// The dedup key is stored at the first arrival the handler answered 2xx;
// each later arrival leaks through every TTL shorter than its distance
// from the key.
func TestTTLLeaksCountArrivalsAfterTheKey(t *testing.T) {
	type arr = struct {
		at      time.Duration
		outcome simulator.Outcome
		handler int
	}
	run := records(t, 2*time.Hour, map[int][]arr{
		// 500 first (no key), lost 200 at 10m (key), delivered at 50m: one leak past 40m.
		0: {{0, simulator.HTTPError, 500}, {10 * time.Minute, simulator.LostResponse, 200}, {50 * time.Minute, simulator.Delivered, 200}},
		// key at 0, duplicates at +3h and +30h.
		1: {{0, simulator.Timeout, 200}, {3 * time.Hour, simulator.LostResponse, 200}, {30 * time.Hour, simulator.Delivered, 200}},
		// never reached, then delivered: no duplicate.
		2: {{0, simulator.ConnectionFailed, 0}, {time.Minute, simulator.Delivered, 200}},
	})
	if run.HandlerArrivals != 7 || run.DuplicateArrivals != 4 || run.DuplicateEvents != 2 {
		t.Errorf("arrivals %d duplicates %d in %d events, want 7, 4, 2", run.HandlerArrivals, run.DuplicateArrivals, run.DuplicateEvents)
	}
	if run.ObservedNeed != 30*time.Hour {
		t.Errorf("observed need %s, want 30h", run.ObservedNeed)
	}
	ttl := run.TTL([]time.Duration{30 * time.Minute, time.Hour, 4 * time.Hour, 24 * time.Hour, 31 * time.Hour})
	want := []int{3, 2, 1, 1, 0}
	for i, c := range ttl.Choices {
		if c.LeakedArrivals != want[i] {
			t.Errorf("TTL %s leaked %d, want %d", c.TTL, c.LeakedArrivals, want[i])
		}
	}
	if ttl.Recommended != 2*policies.Day {
		t.Errorf("recommended %s, want 2d (30h observed beats the 2h window)", ttl.Recommended)
	}
	if run.Causes[simulator.Timeout] != 1 || run.Causes[simulator.LostResponse] != 2 || run.Causes[simulator.HTTPError] != 1 {
		t.Errorf("causes %v", run.Causes)
	}
}

// A timeout the scenario caused by adding latency is not blamed on the
// handler: it is counted apart from the handler's own late answers.
func TestInjectedLatencyIsNotTheHandlersFault(t *testing.T) {
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	a, add := feeder(t)
	add(simulator.Record{Kind: simulator.KindRun, RunFacts: simulator.RunFacts{Start: &start, Events: 2}})
	for seq, added := range []time.Duration{35 * time.Second, 0} { // event 0: injected; event 1: the handler's own
		first := start.Add(time.Duration(seq) * time.Minute)
		add(simulator.Record{Kind: simulator.KindAttempt, Seq: seq, EventID: string(rune('a' + seq)), Attempt: 1, Time: first, Answer: simulator.Answer{HandlerStatus: 200, Reached: true}, AttemptFacts: simulator.AttemptFacts{Outcome: simulator.Timeout, AddedLatency: added}})
		add(simulator.Record{Kind: simulator.KindAttempt, Seq: seq, EventID: string(rune('a' + seq)), Attempt: 2, Time: first.Add(5 * time.Minute), At: time.Duration((300) * float64(time.Second)), Answer: simulator.Answer{Status: 200, HandlerStatus: 200, Reached: true}, AttemptFacts: simulator.AttemptFacts{Outcome: simulator.Delivered}})
	}
	add(simulator.Record{Kind: simulator.KindEnd})
	run := a.Runs()[0]
	if run.InjectedLateArrivals != 1 || run.Causes[simulator.Timeout] != 1 {
		t.Errorf("injected-late %d, handler timeouts %d; want 1 and 1", run.InjectedLateArrivals, run.Causes[simulator.Timeout])
	}
}

// An event the provider did not retry is not said to have used the whole
// schedule.
func TestLostBeforeTheEndOfTheSchedule(t *testing.T) {
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	a, add := feeder(t)
	add(simulator.Record{Kind: simulator.KindRun, RunFacts: simulator.RunFacts{Start: &start, Events: 3, MaxAttempt: 2}})
	add(simulator.Record{Kind: simulator.KindEvent, Seq: 0, EventFacts: simulator.EventFacts{Attempts: 1, Fate: simulator.FateExhausted}})
	add(simulator.Record{Kind: simulator.KindEvent, Seq: 1, EventFacts: simulator.EventFacts{Attempts: 2, Fate: simulator.FateExhausted}})
	add(simulator.Record{Kind: simulator.KindEvent, Seq: 2, EventFacts: simulator.EventFacts{Attempts: 1, Fate: simulator.FateStopped}})
	add(simulator.Record{Kind: simulator.KindEnd})
	run := a.Runs()[0]
	if run.Lost != 3 || run.LostNotRetried != 2 {
		t.Errorf("lost %d, not retried %d; want 3 and 2", run.Lost, run.LostNotRetried)
	}
}
