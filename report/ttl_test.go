package report_test

import (
	"slices"
	"testing"
	"time"

	"github.com/retrysim/retrysim/policies"
	"github.com/retrysim/retrysim/report"
	"github.com/retrysim/retrysim/simulator"
)

// stream builds a run's records: schedule offsets in seconds, manual
// redelivery, and for each event the arrivals as (seconds from the event's
// first attempt, outcome, handler status).
type arrival struct {
	at      time.Duration
	outcome simulator.Outcome
	handler int
	fault   string
}

func stream(t *testing.T, schedule []float64, manual time.Duration, events map[int][]arrival) *report.Summary {
	t.Helper()
	agg := report.NewAggregator(report.WithTimeline(-1))
	start := t0
	base := simulator.Record{Provider: "stripe", Policy: "stripe", Scenario: "s", Seed: 1}
	run := base
	run.Kind, run.Time, run.Start, run.Events = simulator.KindRun, t0, &start, len(events)
	run.Schedule = make([]time.Duration, len(schedule))
	for i, s := range schedule {
		run.Schedule[i] = time.Duration(s * float64(time.Second))
	}
	run.Window, run.ManualRedelivery = run.Schedule[len(schedule)-1], manual
	recs := []simulator.Record{run}
	for seq := 0; seq < len(events); seq++ {
		first := t0.Add(time.Duration(seq) * time.Minute)
		for n, a := range events[seq] {
			r := base
			r.Kind, r.Seq, r.Attempt, r.EventID = simulator.KindAttempt, seq, n+1, "ev"+string(rune('a'+seq))
			r.Time, r.At = first.Add(a.at), a.at
			r.Outcome, r.HandlerStatus, r.Reached, r.Fault = a.outcome, a.handler, a.outcome != simulator.ConnectionFailed, a.fault
			recs = append(recs, r)
		}
		f := base
		f.Kind, f.Seq, f.Fate = simulator.KindEvent, seq, simulator.FateDelivered
		recs = append(recs, f)
	}
	end := base
	end.Kind = simulator.KindEnd
	recs = append(recs, end)
	for _, r := range recs {
		if err := agg.Add(&r); err != nil {
			t.Fatal(err)
		}
	}
	return agg.Runs()[0]
}

func TestTTLChoices(t *testing.T) {
	lost := func(at time.Duration) arrival { return arrival{at, simulator.LostResponse, 200, "lost-response"} }
	ok := func(at time.Duration) arrival { return arrival{at, simulator.Delivered, 200, ""} }
	r := stream(t, []float64{0, 60, 3600, 86400}, 3*24*time.Hour, map[int][]arrival{
		// key stored at +0, duplicates 10 minutes and 2 hours after it
		0: {lost(0), lost(10 * time.Minute), ok(2 * time.Hour)},
		// key stored at +1m (the first attempt never reached), duplicate 30s later
		1: {{0, simulator.ConnectionFailed, 0, "drop-request"}, lost(time.Minute), ok(90 * time.Second)},
		2: {ok(0)},
	})
	cases := []struct {
		ttl                   time.Duration
		arrivals, events      int
		worst                 int
		manualLeaks, advice5m bool
	}{
		{ttl: 0, arrivals: 3, events: 2, worst: 3, manualLeaks: true},
		{ttl: 5 * time.Minute, arrivals: 2, events: 1, worst: 2, manualLeaks: true},
		{ttl: time.Hour, arrivals: 1, events: 1, worst: 1, manualLeaks: true},
		{ttl: 2 * time.Hour, arrivals: 0, events: 0, worst: 1, manualLeaks: true},
		{ttl: 24 * time.Hour, arrivals: 0, events: 0, worst: 0, manualLeaks: true},
		{ttl: 3 * 24 * time.Hour, arrivals: 0, events: 0, worst: 0, manualLeaks: false},
	}
	for _, c := range cases {
		t.Run(c.ttl.String(), func(t *testing.T) {
			got := r.TTL([]time.Duration{c.ttl}).Choices[0]
			if got.LeakedArrivals != c.arrivals || got.LeakedEvents != c.events || got.WorstArrivals != c.worst || got.ManualLeaks != c.manualLeaks {
				t.Errorf("TTL %s: got arrivals %d events %d worst %d manual %v; want %d %d %d %v",
					c.ttl, got.LeakedArrivals, got.LeakedEvents, got.WorstArrivals, got.ManualLeaks, c.arrivals, c.events, c.worst, c.manualLeaks)
			}
		})
	}
	a := r.TTL(nil)
	if a.Retries != 3 {
		t.Errorf("Retries = %d, want 3", a.Retries)
	}
	if a.Observed != 2*time.Hour {
		t.Errorf("Observed = %s, want 2h (key at +0, last duplicate at +2h)", a.Observed)
	}
	if a.Recommended != 2*24*time.Hour {
		t.Errorf("Recommended = %s, want 2d (the 1d window plus the buffer, rounded up)", a.Recommended)
	}
}

func TestCommonAdviceNamedOnlyWhenWrong(t *testing.T) {
	cases := []struct {
		name      string
		schedule  []float64
		wantLines []report.CommonTTL
	}{
		{"3-day retries", []float64{0, 300, 3600, 259200}, []report.CommonTTL{report.CommonTTLStandardWebhooks, report.CommonTTLDayCache}},
		{"8-hour retries", []float64{0, 600, 28800}, []report.CommonTTL{report.CommonTTLStandardWebhooks}},
		{"seconds of retries", []float64{0, 1, 2}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := stream(t, c.schedule, 0, map[int][]arrival{0: {{0, simulator.Delivered, 200, ""}}})
			advice := r.TTL(nil).WrongAdvice
			if len(advice) != len(c.wantLines) {
				t.Fatalf("advice = %+v, want %d naming %q", advice, len(c.wantLines), c.wantLines)
			}
			for i, w := range c.wantLines {
				if advice[i].Advice != w || advice[i].Choice.WorstArrivals == 0 {
					t.Errorf("advice %d = %+v, want %s, too short", i, advice[i], w)
				}
			}
		})
	}
}

func TestOutagesInferredFromAttempts(t *testing.T) {
	refused := func(at time.Duration) arrival {
		return arrival{at, simulator.ConnectionFailed, 0, "outage"}
	}
	r := stream(t, []float64{0, 600, 1200}, 0, map[int][]arrival{
		0: {refused(0), refused(10 * time.Minute), {20 * time.Minute, simulator.Delivered, 200, ""}},
	})
	if len(r.Outages) != 1 {
		t.Fatalf("outages = %v, want one", r.Outages)
	}
	if got := r.Outages[0]; !got.From.Equal(t0) || !got.To.Equal(t0.Add(10*time.Minute)) {
		t.Errorf("outage = %v to %v, want +0 to +10m", got.From.Sub(t0), got.To.Sub(t0))
	}
}

// The handler's own TTL joins the choices a report compares, in order of
// length; with no choices given it joins the defaults, which stay as they
// were.
func TestWithTTLChoice(t *testing.T) {
	for _, tc := range []struct {
		name    string
		choices []time.Duration
		ttl     time.Duration
		want    []time.Duration
	}{
		{"none given: the defaults and it", nil, 2 * time.Hour, []time.Duration{5 * time.Minute, time.Hour, 2 * time.Hour, 24 * time.Hour, 72 * time.Hour, 7 * policies.Day, 30 * policies.Day}},
		{"already among them", []time.Duration{time.Hour}, time.Hour, []time.Duration{time.Hour}},
		{"shortest", []time.Duration{time.Hour, 2 * time.Hour}, time.Minute, []time.Duration{time.Minute, time.Hour, 2 * time.Hour}},
		{"none configured", []time.Duration{time.Hour}, 0, []time.Duration{time.Hour}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			given := slices.Clone(tc.choices)
			if got := report.WithTTLChoice(tc.choices, tc.ttl); !slices.Equal(got, tc.want) {
				t.Errorf("WithTTLChoice(%v, %v) = %v, want %v", tc.choices, tc.ttl, got, tc.want)
			}
			if !slices.Equal(given, tc.choices) {
				t.Errorf("the choices given changed: %v", tc.choices)
			}
			if got := report.TTLChoices(nil); !slices.Equal(got, report.DefaultTTLs()) {
				t.Errorf("TTLChoices(nil) = %v, want the defaults", got)
			}
		})
	}
}
