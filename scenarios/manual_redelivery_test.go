package scenarios_test

import (
	"testing"
	"time"

	"github.com/retrysim/retrysim/scenarios/scenariotest"
	"github.com/retrysim/retrysim/simulator"
)

func TestManualRedelivery(t *testing.T) {
	cases := []struct {
		name, policy, scenario string
		want                   []pair
		fate                   string
		after                  time.Duration // the resend's offset from the last automatic attempt, if any
	}{
		{"a resend two days later", "manual_redelivery: 3d\n", "faults: [{type: manual-redelivery, after: 2d}]",
			[]pair{delivered, delivered}, simulator.FateDelivered, 48 * time.Hour},
		{"no manual redelivery at this provider", "", "faults: [{type: manual-redelivery, after: 2d}]",
			[]pair{delivered}, simulator.FateDelivered, 0},
		{"past the window: nobody can resend", "manual_redelivery: 1d\n", "faults: [{type: manual-redelivery, after: 2d}]",
			[]pair{delivered}, simulator.FateDelivered, 0},
		{"a given-up event delivered by hand", "manual_redelivery: 30d\n",
			"faults: [{type: drop-request, attempts: [1, 2, 3, 4]}, {type: manual-redelivery, after: 3d}]",
			[]pair{refused, refused, refused, refused, delivered}, simulator.FateDelivered, 72 * time.Hour},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := &logHandler{}
			r := runFault(t, testPolicy(t, tc.policy), scenariotest.Faults(t, tc.scenario), h, 3)
			checkPairs(t, r, 3, same(tc.want...))
			checkArrivals(t, r, h)
			for _, ev := range r.events {
				if ev.Fate != tc.fate {
					t.Errorf("event %d: fate %s, want %s", ev.Seq, ev.Fate, tc.fate)
				}
			}
			if r.res.Delivered != 3 || r.res.Lost != 0 {
				t.Errorf("delivered %d, lost %d; want 3 and 0", r.res.Delivered, r.res.Lost)
			}
			last := map[int]time.Time{}
			for _, a := range r.attempts {
				if a.Manual {
					if tc.after == 0 {
						t.Errorf("event %d: a manual resend where none was possible", a.Seq)
					} else if got := a.Time.Sub(last[a.Seq]); got != tc.after {
						t.Errorf("event %d: resent %s after its last attempt, want %s", a.Seq, got, tc.after)
					}
				}
				last[a.Seq] = a.Time
			}
		})
	}
}
