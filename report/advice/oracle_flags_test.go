package advice_test

import (
	"testing"
	"time"

	"github.com/retrysim/retrysim/report/advice"
)

// TestOracleFlags: the queries need a database URL, a database URL needs
// --effects-query, and --settle-quiet is read whatever the oracle.
func TestOracleFlags(t *testing.T) {
	_, db, quiet, errs := advice.OracleFlags{EffectsURL: "http://127.0.0.1:3000/effects", SettleQuiet: "3s"}.Check()
	if db || quiet != 3*time.Second || errs != nil {
		t.Errorf("an HTTP oracle: db %v, quiet %s, %q", db, quiet, messages(errs))
	}
	_, _, _, errs = advice.OracleFlags{EffectsQuery: "SELECT 1", PendingQuery: "SELECT 0", SettleQuiet: "-1s"}.Check()
	sameLines(t, errs,
		`--settle-quiet: bad duration: "-1s" is negative`,
		"--effects-query reads a database: give --effects-url postgres://…, mysql://… or sqlite:PATH",
		"--pending-query reads a database: give --effects-url postgres://…, mysql://… or sqlite:PATH")
	src, db, _, errs := advice.OracleFlags{EffectsURL: "postgres://app:pw@db.internal:5433/shop"}.Check()
	if !db || src.Host != "db.internal" || src.Port != "5433" || src.Password != "pw" || src.Local {
		t.Errorf("a database: db %v, source %+v", db, src)
	}
	sameLines(t, errs, "--effects-url names a database: give --effects-query, returning one (id, times) row per dedup id, e.g. --effects-query 'SELECT event_id, count(*) FROM ledger GROUP BY event_id'")
	// A MySQL port out of range is the database URL's problem, said as
	// one: not left for the loopback check, which reads host and port as
	// an http:// URL's.
	_, db, _, errs = advice.OracleFlags{EffectsURL: "mysql://app:pw@127.0.0.1:99999/shop", EffectsQuery: "SELECT id, n FROM t"}.Check()
	if db {
		t.Errorf("a MySQL URL with port 99999 was taken")
	}
	sameLines(t, errs, "--effects-url: database URL: mysql: port 99999 is not a port (1..65535)")
	src, db, _, errs = advice.OracleFlags{EffectsURL: "sqlite:" + t.TempDir() + "/app.db", EffectsQuery: "SELECT id, n FROM t"}.Check()
	if !db || !src.Local || errs != nil {
		t.Errorf("a SQLite file: db %v, local %v, %q", db, src.Local, messages(errs))
	}
}
