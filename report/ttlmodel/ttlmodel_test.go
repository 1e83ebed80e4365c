package ttlmodel_test

import (
	"bytes"
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/retrysim/retrysim/policies"
	"github.com/retrysim/retrysim/policies/policytest"
	"github.com/retrysim/retrysim/report"
	"github.com/retrysim/retrysim/report/ttlmodel"
	"github.com/retrysim/retrysim/scenarios"
	"github.com/retrysim/retrysim/scenarios/scenariotest"
	"github.com/retrysim/retrysim/simulator"
)

func model(t *testing.T, names ...string) ttlmodel.Model {
	t.Helper()
	sc := scenariotest.Lookup(t, scenarios.Default)
	m := ttlmodel.Model{Scenario: sc, Events: 20, Over: time.Hour, Seed: simulator.DefaultSeed}
	for _, n := range names {
		m.Policies = append(m.Policies, policytest.Lookup(t, n))
	}
	return m
}

// TestProvidersAllRetry: the default comparison leaves out a policy that
// never sends twice, and keeps the ones that retry.
func TestProvidersAllRetry(t *testing.T) {
	got := ttlmodel.Providers()
	if !slices.Contains(got, "stripe") {
		t.Errorf("stripe is not compared by default: %v", got)
	}
	for _, n := range got {
		p, err := policies.Default().Lookup(n)
		if err != nil || p.MaxAttempts() < 2 {
			t.Errorf("%s is compared but never retries (%v)", n, err)
		}
	}
}

// TestRunModelsEachPolicy: one modelled run per policy, in order, sent
// nothing, and its TTL table compares the choices asked about; the
// watcher sees the records.
func TestRunModelsEachPolicy(t *testing.T) {
	m := model(t, "stripe", "shopify")
	m.TTLs = []time.Duration{5 * time.Minute, 72 * time.Hour}
	seen := 0
	m.Watch = func(*simulator.Record) { seen++ }
	rep, err := m.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Runs) != 2 || rep.Runs[0].Policy != "stripe" || rep.Runs[1].Policy != "shopify" {
		t.Fatalf("runs %d, want stripe then shopify", len(rep.Runs))
	}
	for _, r := range rep.Runs {
		if !r.Modelled() {
			t.Errorf("%s was not modelled", r.Policy)
		}
	}
	if seen == 0 {
		t.Error("the watcher saw no record")
	}
	var text bytes.Buffer
	if err := report.WriteTTL(&text, rep, report.FormatText); err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(text.Bytes(), []byte("72h")) && !bytes.Contains(text.Bytes(), []byte("3d")) {
		t.Errorf("the tables do not compare 72h:\n%s", text.String())
	}
}

// TestRunStopsWithTheContext: a context ended before the start models
// less than asked, with no error: the caller says it was interrupted.
func TestRunStopsWithTheContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	rep, err := model(t, "stripe", "shopify").Run(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Runs) > 1 {
		t.Errorf("%d runs modelled after the end", len(rep.Runs))
	}
}

// TestRunRefusesABadModel: a model the engine refuses fails with
// simulator.ErrConfig.
func TestRunRefusesABadModel(t *testing.T) {
	m := model(t, "stripe")
	m.Over = -time.Hour
	if _, err := m.Run(context.Background()); !errors.Is(err, simulator.ErrConfig) {
		t.Errorf("error %v, want ErrConfig", err)
	}
}
