package simulator

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/retrysim/retrysim/policies/policytest"
	"github.com/retrysim/retrysim/scenarios/scenariotest"
)

// A restart that fails stops the run at its moment, under either
// scheduler: nothing is sent after it, every event started has its fate,
// the run is closed as interrupted, and Run says which restart failed and
// why.
func TestFailedRestartStopsTheRun(t *testing.T) {
	sc := scenariotest.Faults(t, "faults: [{type: restart, interval: 15m, until: 6h}, {type: lost-response, probability: 0.3}]\n")
	portTaken := errors.New("listening again: address already in use")
	for _, concurrency := range []int{1, 8} {
		calls := 0
		var recs []Record
		res, err := Run(context.Background(), Config{
			Policy: policytest.Lookup(t, "stripe"), Scenario: sc, Events: 30, Over: time.Hour, Seed: 5, RunID: "test",
			Concurrency: concurrency, Secret: "s",
			Handler: http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}),
			Restart: func(context.Context) error {
				if calls++; calls == 3 {
					return portTaken
				}
				return nil
			},
			Sink: func(r *Record) error { recs = append(recs, *r); return nil },
		})
		var re *RestartError
		if !errors.As(err, &re) || !errors.Is(err, portTaken) {
			t.Fatalf("concurrency %d: Run returned %v, want the third restart's failure", concurrency, err)
		}
		if re.At != 45*time.Minute || err.Error() != "restarting the handler at +45m: "+portTaken.Error() {
			t.Errorf("concurrency %d: %q at +%s, want the restart at +45m", concurrency, err, re.At)
		}
		if calls != 3 || res.Restarts != 3 || !res.Interrupted {
			t.Errorf("concurrency %d: %d calls, %d restarts, interrupted %t; want 3, 3, true", concurrency, calls, res.Restarts, res.Interrupted)
		}
		start := recs[0].Time
		fates, started := map[int]string{}, map[int]bool{}
		for _, r := range recs {
			switch r.Kind {
			case KindAttempt:
				started[r.Seq] = true
				if at := r.Time.Sub(start); at >= re.At {
					t.Errorf("concurrency %d: attempt %d of event %d sent at +%s, after the failed restart", concurrency, r.Attempt, r.Seq, at)
				}
			case KindEvent:
				fates[r.Seq] = r.Fate
			case KindRestart:
				if (r.Error != "") != (r.Restart == 3) {
					t.Errorf("concurrency %d: restart %d has error %q", concurrency, r.Restart, r.Error)
				}
			}
		}
		for seq := range started {
			if fates[seq] == "" {
				t.Errorf("concurrency %d: event %d started and has no fate", concurrency, seq)
			}
		}
		interrupted := 0
		for _, f := range fates {
			if f == FateInterrupted {
				interrupted++
			}
		}
		if interrupted == 0 {
			t.Errorf("concurrency %d: no event was in flight at the failed restart: the test proves nothing", concurrency)
		}
		if end := recs[len(recs)-1]; end.Kind != KindEnd || !end.Interrupted {
			t.Errorf("concurrency %d: the last record is %s (interrupted %t), want an interrupted end", concurrency, end.Kind, end.Interrupted)
		}
	}
}
