package simulator

import (
	"reflect"
	"testing"

	"github.com/retrysim/retrysim/scenarios/scenariotest"
)

// An attempt record is built from zero and stamped rather than copied from
// the base: stamping must give exactly the base, or attempt records would
// lose what the base carries.
func TestStampIsTheBase(t *testing.T) {
	cfg := Config{Policy: mustPolicy(t, "stripe"), Scenario: scenariotest.Lookup(t, "happy"), DryRun: true, Events: 1, Seed: 7}
	if err := cfg.providerDefaults(); err != nil {
		t.Fatal(err)
	}
	c, err := cfg.withDefaults()
	if err != nil {
		t.Fatal(err)
	}
	e := newEngine(c)
	defer e.release()
	var r Record
	e.stamp(&r)
	if !reflect.DeepEqual(r, e.base) {
		t.Errorf("stamped %+v\nbase    %+v", r, e.base)
	}
	if r.Provider != "stripe" || r.Seed != 7 {
		t.Errorf("stamped provider %q seed %d, want stripe 7", r.Provider, r.Seed)
	}
}
