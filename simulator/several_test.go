package simulator

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"testing"

	"github.com/retrysim/retrysim/policies/policytest"
	"github.com/retrysim/retrysim/scenarios/scenariotest"
)

// TestRunSeveralKeepsRunOrder: together or in turn, every record of a run
// is delivered before any of the next run's, and every prepared run is
// done with; in turn, a run is done with before the next is readied.
func TestRunSeveralKeepsRunOrder(t *testing.T) {
	pols := []string{"stripe", "github", "shopify"}
	for _, together := range []bool{true, false} {
		t.Run(fmt.Sprintf("together=%v", together), func(t *testing.T) {
			var mu sync.Mutex
			var steps []string
			step := func(s string) { mu.Lock(); steps = append(steps, s); mu.Unlock() }
			prepare := func(i int) (Config, func(), error) {
				step(fmt.Sprintf("prepare %d", i))
				cfg := Config{Policy: policytest.Lookup(t, pols[i]), Handler: respond(http.StatusOK), Events: 5, Seed: 3, RunID: "test", Secret: "s", Concurrency: 2}
				return cfg, func() { step(fmt.Sprintf("done %d", i)) }, nil
			}
			var order []string
			err := RunSeveral(context.Background(), len(pols), together, prepare, func(r *Record) error {
				if len(order) == 0 || order[len(order)-1] != r.Provider {
					order = append(order, r.Provider)
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if fmt.Sprint(order) != fmt.Sprint([]string{"stripe", "github", "shopify"}) {
				t.Errorf("records by run in order %v, want each run's together, in the runs' order", order)
			}
			if len(steps) != 6 {
				t.Fatalf("steps %v, want each run prepared and done with", steps)
			}
			if !together && fmt.Sprint(steps) != "[prepare 0 done 0 prepare 1 done 1 prepare 2 done 2]" {
				t.Errorf("in turn: steps %v", steps)
			}
		})
	}
}

// TestRunSeveralStopsOnPrepare: a run that cannot be readied ends them
// all with its error, and what was readied is done with.
func TestRunSeveralStopsOnPrepare(t *testing.T) {
	broken := errors.New("no handler")
	done := 0
	err := RunSeveral(context.Background(), 2, true, func(i int) (Config, func(), error) {
		if i == 1 {
			return Config{}, func() { done++ }, broken
		}
		return Config{Policy: policytest.Lookup(t, "stripe"), Handler: respond(http.StatusOK), Events: 1, Secret: "s"}, func() { done++ }, nil
	}, func(*Record) error { return nil })
	if !errors.Is(err, broken) || done != 2 {
		t.Errorf("err %v, %d done with; want the prepare's error, 2", err, done)
	}
}

// TestRunSeveralGoesOnAfterAFailedRestart: in turn, a run that a failed
// restart of its handler stopped stops only itself; the next run is
// readied and run, and the restart's error is returned at the end.
func TestRunSeveralGoesOnAfterAFailedRestart(t *testing.T) {
	sc := scenariotest.Faults(t, "faults: [{type: restart, interval: 15m, until: 2h}]\n")
	portTaken := errors.New("listening again: address already in use")
	pols := []string{"stripe", "shopify"}
	var providers []string
	err := RunSeveral(context.Background(), len(pols), false, func(i int) (Config, func(), error) {
		cfg := Config{Policy: policytest.Lookup(t, pols[i]), Scenario: sc, Handler: respond(http.StatusInternalServerError), Events: 3, Secret: "s", RunID: "test"}
		cfg.Restart = func(context.Context) error { return nil }
		if i == 0 {
			cfg.Restart = func(context.Context) error { return portTaken }
		}
		return cfg, func() {}, nil
	}, func(r *Record) error {
		if r.Kind == KindRun {
			providers = append(providers, r.Provider)
		}
		return nil
	})
	var re *RestartError
	if !errors.As(err, &re) || !errors.Is(err, portTaken) {
		t.Errorf("err %v, want the first run's failed restart", err)
	}
	if fmt.Sprint(providers) != "[stripe shopify]" {
		t.Errorf("runs %v, want stripe's stopped and shopify's still run", providers)
	}
}
