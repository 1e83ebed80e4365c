package main

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"
)

// TestBlackHoleStripe: with every request vanishing, Stripe gives every
// event its whole schedule: 16 failed attempts over about 3 days.
func TestBlackHoleStripe(t *testing.T) {
	var out, errOut bytes.Buffer
	code := run([]string{"run", "--provider", "stripe", "--scenario", "black-hole", "--events", "8", "--format", "json"}, nil, &out, &errOut)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	var rep struct {
		Runs []struct {
			Summary struct {
				LostEvents int `json:"lost_events"`
			} `json:"summary"`
			Events []struct {
				Fate     string `json:"fate"`
				Attempts []struct {
					AtSeconds      float64 `json:"at_seconds"`
					Outcome        string  `json:"outcome"`
					ReachedHandler bool    `json:"reached_handler"`
				} `json:"attempts"`
			} `json:"events"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Runs) != 1 || len(rep.Runs[0].Events) != 8 || rep.Runs[0].Summary.LostEvents != 8 {
		t.Fatalf("want one run with 8 events, all lost; got %s", out.String())
	}
	for i, ev := range rep.Runs[0].Events {
		if len(ev.Attempts) != 16 || ev.Fate != "exhausted" {
			t.Errorf("event %d: %d attempts, fate %s; want 16, exhausted", i, len(ev.Attempts), ev.Fate)
			continue
		}
		for _, a := range ev.Attempts {
			if a.Outcome != "timeout" || a.ReachedHandler {
				t.Errorf("event %d: attempt (%s, %t), want (timeout, false)", i, a.Outcome, a.ReachedHandler)
			}
		}
		last := time.Duration(ev.Attempts[15].AtSeconds * float64(time.Second))
		if last < 71*time.Hour || last > 73*time.Hour {
			t.Errorf("event %d: last attempt at +%s, want about 3 days", i, last)
		}
	}
}
