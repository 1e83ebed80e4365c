package simulator

import (
	"errors"
	"slices"
	"testing"

	"github.com/retrysim/retrysim/policies/policytest"
	"github.com/retrysim/retrysim/scenarios/scenariotest"
)

// The seed decides the timeline and every fault; the run id decides the
// ids. Two runs with one seed and two run ids make the same attempts at the
// same times with the same faults, and share no id; the same run id again
// gives the same ids.
func TestRunIDChangesIdsOnly(t *testing.T) {
	srv := ok200(t)
	type attempt struct {
		seq, n  int
		at      string
		outcome Outcome
		fault   string
	}
	run := func(runID string) (timeline []attempt, ids []string, rec Record) {
		recs, res := collect(t, Config{Policy: policytest.Lookup(t, "stripe"), Scenario: scenariotest.Lookup(t, "forged"), URL: srv.URL,
			Events: 12, Seed: 9, RunID: runID, Secret: "s"})
		if res.RunID == "" || (runID != "" && res.RunID != runID) {
			t.Fatalf("result run id %q, want %q", res.RunID, runID)
		}
		for _, r := range recs {
			switch r.Kind {
			case KindRun:
				rec = r
			case KindAttempt:
				timeline = append(timeline, attempt{r.Seq, r.Attempt, r.Time.String(), r.Outcome, r.Fault})
				ids = append(ids, r.EventID)
			case KindAttack:
				if r.EventID != "" {
					ids = append(ids, r.EventID)
				}
			}
		}
		return timeline, ids, rec
	}
	t1, ids1, rec1 := run("")
	t2, ids2, rec2 := run("")
	t3, ids3, _ := run(rec1.RunID)
	if rec1.RunID == "" || rec1.RunID == rec2.RunID {
		t.Fatalf("run records carry run ids %q and %q: want two fresh ones", rec1.RunID, rec2.RunID)
	}
	if !slices.Equal(t1, t2) || !slices.Equal(t1, t3) {
		t.Error("the timeline changed with the run id")
	}
	for _, id := range ids1 {
		if slices.Contains(ids2, id) {
			t.Errorf("%s is in two runs with different run ids", id)
		}
	}
	if !slices.Equal(ids1, ids3) {
		t.Error("the same run id again gave other ids")
	}
}

func TestCheckRunID(t *testing.T) {
	for _, id := range []string{"", "a b", "ü", string(make([]byte, MaxRunID+1))} {
		if err := CheckRunID(id); !errors.Is(err, ErrRunID) {
			t.Errorf("CheckRunID(%q) = %v, want ErrRunID", id, err)
		}
	}
	for _, id := range []string{"a", "Run_2026-01-01", NewRunID()} {
		if err := CheckRunID(id); err != nil {
			t.Errorf("CheckRunID(%q) = %v", id, err)
		}
	}
}

// The effects are matched to events by the id alone: it must be the id the
// event was sent with, for every wire format.
func TestWorkloadIDIsTheEventsID(t *testing.T) {
	for _, name := range []string{"stripe", "github", "shopify", "twilio", "slack", "discord", "gitlab", "paypal", "svix", "zoom", "standard-webhooks"} {
		p := policytest.Lookup(t, name)
		w := workload{seed: 3, ids: runKey("x"), n: 50, start: DefaultStart(), over: DefaultOver, wire: p.Wire(), typ: p.Wire().DefaultEventType()}
		for i := range w.n {
			if got, want := w.id(i), w.event(i).ID; got != want {
				t.Fatalf("%s: event %d: id %q, want %q", name, i, got, want)
			}
		}
	}
}
