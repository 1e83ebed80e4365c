package simulator

import (
	"context"
	"reflect"
	"testing"
	"time"

	"github.com/retrysim/retrysim/policies/policytest"
	"github.com/retrysim/retrysim/scenarios/scenariotest"
)

// An attempt record is built field by field rather than copied from the
// run's base record: it must still carry every field the base sets.
func TestAttemptRecordsCarryTheBase(t *testing.T) {
	var base Record
	attempts := engineAttempts(t, Config{Policy: policytest.Lookup(t, "stripe"), Scenario: scenariotest.Lookup(t, "happy"), DryRun: true, Events: 2, Seed: 7},
		nil, func(e *engine) { base = e.base })
	if len(attempts) == 0 {
		t.Fatal("no attempt records")
	}
	bv := reflect.ValueOf(base)
	for i := range bv.NumField() {
		if bv.Field(i).IsZero() {
			continue
		}
		name := bv.Type().Field(i).Name
		if got := reflect.ValueOf(attempts[0]).Field(i); !reflect.DeepEqual(got.Interface(), bv.Field(i).Interface()) {
			t.Errorf("attempt record's %s = %v, the base's is %v", name, got, bv.Field(i))
		}
	}
	if attempts[0].Provider != "stripe" || attempts[0].Seed != 7 {
		t.Errorf("attempt record provider %q seed %d, want stripe 7", attempts[0].Provider, attempts[0].Seed)
	}
}

// The engine lends the sink one attempt record and refills it for each
// attempt: every field an attempt has must be set afresh, or an attempt
// would carry what the one before it said (an error, a fault, a status).
func TestAttemptRecordsCarryNothingOfTheLast(t *testing.T) {
	attempts := func(stale bool) []Record {
		cfg := Config{Policy: policytest.Lookup(t, "stripe"), Scenario: scenariotest.Lookup(t, "flaky-network"), DryRun: true, Events: 40, Seed: 3, RunID: "reuse"}
		var prepare func(*engine)
		if stale {
			prepare = func(e *engine) { fillAttemptFields(t, &e.att) }
		}
		return engineAttempts(t, cfg, prepare, nil)
	}
	fresh, stale := attempts(false), attempts(true)
	if len(fresh) == 0 || len(fresh) != len(stale) {
		t.Fatalf("%d attempts from a fresh record, %d from a stale one", len(fresh), len(stale))
	}
	for i := range fresh {
		if !reflect.DeepEqual(fresh[i], stale[i]) {
			t.Fatalf("attempt %d carries the record's old contents:\n got %+v\nwant %+v", i, stale[i], fresh[i])
		}
	}
}

// fillAttemptFields sets every field an attempt record has (the shared
// ones an attempt sets, Answer's and AttemptFacts') to a value no attempt
// of a run has.
func fillAttemptFields(t *testing.T, r *Record) {
	t.Helper()
	v := reflect.ValueOf(r).Elem()
	typ := v.Type()
	n := 0
	for _, sf := range reflect.VisibleFields(typ) {
		if sf.Anonymous || sf.Name == "Restart" {
			continue
		}
		if len(sf.Index) > 1 {
			if in := typ.Field(sf.Index[0]).Name; in != "Answer" && in != "AttemptFacts" {
				continue
			}
		}
		f := v.FieldByIndex(sf.Index)
		switch f.Kind() {
		case reflect.String:
			f.SetString("stale")
		case reflect.Int, reflect.Int64:
			f.SetInt(-7)
		case reflect.Uint64:
			f.SetUint(1 << 60)
		case reflect.Bool:
			f.SetBool(true)
		case reflect.Float64:
			f.SetFloat(-1.5)
		case reflect.Struct:
			f.Set(reflect.ValueOf(time.Unix(1, 0)))
		default:
			t.Fatalf("fillAttemptFields does not know the kind of Record.%s", sf.Name)
		}
		n++
	}
	if n < 20 {
		t.Fatalf("only %d attempt fields filled", n)
	}
}

// engineAttempts runs cfg on an engine of its own and returns the attempt
// records; prepare, if not nil, is called on the engine before the run and
// after, if not nil, once it is over.
func engineAttempts(t *testing.T, cfg Config, prepare, after func(*engine)) []Record {
	t.Helper()
	var recs []Record
	cfg.Sink = func(r *Record) error {
		if r.Kind == KindAttempt {
			recs = append(recs, *r)
		}
		return nil
	}
	if err := cfg.providerDefaults(); err != nil {
		t.Fatal(err)
	}
	c, err := cfg.resolve()
	if err != nil {
		t.Fatal(err)
	}
	e := newEngine(c)
	defer e.release()
	if prepare != nil {
		prepare(e)
	}
	if _, err := e.run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if after != nil {
		after(e)
	}
	return recs
}
