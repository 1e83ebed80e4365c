package simulator

import (
	"context"
	"reflect"
	"testing"

	"github.com/retrysim/retrysim/scenarios/scenariotest"
)

// An attempt record is built field by field rather than copied from the
// run's base record: it must still carry every field the base sets.
func TestAttemptRecordsCarryTheBase(t *testing.T) {
	cfg := Config{Policy: mustPolicy(t, "stripe"), Scenario: scenariotest.Lookup(t, "happy"), DryRun: true, Events: 2, Seed: 7}
	var attempts []Record
	cfg.Sink = func(r Record) error {
		if r.Kind == KindAttempt {
			attempts = append(attempts, r)
		}
		return nil
	}
	if err := cfg.providerDefaults(); err != nil {
		t.Fatal(err)
	}
	c, err := cfg.withDefaults()
	if err != nil {
		t.Fatal(err)
	}
	e := newEngine(c)
	defer e.release()
	if _, err := e.run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if len(attempts) == 0 {
		t.Fatal("no attempt records")
	}
	base := reflect.ValueOf(e.base)
	for i := range base.NumField() {
		if base.Field(i).IsZero() {
			continue
		}
		name := base.Type().Field(i).Name
		if got := reflect.ValueOf(attempts[0]).Field(i); !reflect.DeepEqual(got.Interface(), base.Field(i).Interface()) {
			t.Errorf("attempt record's %s = %v, the base's is %v", name, got, base.Field(i))
		}
	}
	if attempts[0].Provider != "stripe" || attempts[0].Seed != 7 {
		t.Errorf("attempt record provider %q seed %d, want stripe 7", attempts[0].Provider, attempts[0].Seed)
	}
}
