package simulator

import (
	"reflect"
	"testing"
)

// An attempt record is built field by field rather than copied from the
// base: baseRecord must give exactly the base, or attempt records would
// lose what the base carries.
func TestBaseRecordIsTheBase(t *testing.T) {
	cfg := Config{Policy: mustPolicy(t, "stripe"), Scenario: mustScenario(t, "happy"), DryRun: true, Events: 1, Seed: 7}
	if err := cfg.providerDefaults(); err != nil {
		t.Fatal(err)
	}
	c, err := cfg.withDefaults()
	if err != nil {
		t.Fatal(err)
	}
	e := newEngine(c)
	defer e.release()
	r := e.baseRecord(KindAttempt)
	r.Kind = ""
	if !reflect.DeepEqual(r, e.base) {
		t.Errorf("baseRecord %+v\nbase       %+v", r, e.base)
	}
	if r.Provider != "stripe" || r.Seed != 7 {
		t.Errorf("baseRecord provider %q seed %d, want stripe 7", r.Provider, r.Seed)
	}
}
