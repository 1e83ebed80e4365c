package simulator_test

import (
	"context"
	"database/sql"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/retrysim/retrysim/simulator"
	"github.com/retrysim/retrysim/simulator/oracle"
)

// TestOracleAtTakesNoProxy: with remote targets allowed, the effects
// oracle ignores HTTP_PROXY as the deliveries do, rather than sending its
// GET to the proxy.
func TestOracleAtTakesNoProxy(t *testing.T) {
	var proxied atomic.Int32
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		proxied.Add(1)
		w.WriteHeader(http.StatusBadGateway)
	}))
	defer proxy.Close()
	effects := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Write([]byte(`{"evt_1": 1}`))
	}))
	defer effects.Close()
	t.Setenv("HTTP_PROXY", proxy.URL)
	t.Setenv("http_proxy", proxy.URL)
	t.Setenv("NO_PROXY", "")
	// A *.localhost name: Go's proxy rules pass 127.0.0.1 by, not this.
	u := strings.Replace(effects.URL, "127.0.0.1", "effects.localhost", 1) + "/effects"
	got, err := simulator.EffectsOf(simulator.OracleAt(u, true))(context.Background())
	if err != nil || got["evt_1"] != 1 {
		t.Errorf("the oracle answered %v, %v", got, err)
	}
	if n := proxied.Load(); n != 0 {
		t.Errorf("the oracle's request went to HTTP_PROXY %d times", n)
	}
}

// TestOpenDatabaseOracleReadsFirst: a database the oracle cannot read is
// refused when it is opened, with the reason, before any run.
func TestOpenDatabaseOracleReadsFirst(t *testing.T) {
	src, err := oracle.ParseSource("sqlite:" + t.TempDir() + "/effects.db")
	if err != nil {
		t.Fatal(err)
	}
	_, err = simulator.OpenDatabaseOracle(context.Background(), src, "SELECT event_id, count(*) FROM ledger GROUP BY event_id", "", false, 5*time.Second)
	var oe *oracle.Error
	if !errors.As(err, &oe) || oe.Reason != oracle.ReasonNoTable && oe.Reason != oracle.ReasonNoDatabase {
		t.Fatalf("opening a database without the table: %v, want an *oracle.Error saying so", err)
	}
}

// TestOpenDatabaseOracleOutlivesAShortSettle: the read before the run is
// not cut to the settle window. A user with --settle 1ms and a database
// that answers in a few milliseconds is not told it cannot be read.
func TestOpenDatabaseOracleOutlivesAShortSettle(t *testing.T) {
	path := t.TempDir() + "/effects.db"
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("CREATE TABLE ledger (event_id TEXT); INSERT INTO ledger VALUES ('evt_1'), ('evt_1')"); err != nil {
		t.Fatal(err)
	}
	db.Close()
	src, err := oracle.ParseSource("sqlite:" + path)
	if err != nil {
		t.Fatal(err)
	}
	o, err := simulator.OpenDatabaseOracle(context.Background(), src, "SELECT event_id, count(*) FROM ledger GROUP BY event_id", "", false, time.Nanosecond)
	if err != nil {
		t.Fatalf("a readable database with a 1 ns settle window was refused: %v", err)
	}
	defer o.Close()
	got, err := o.Read(context.Background())
	if err != nil || got.Effects["evt_1"] != 2 {
		t.Errorf("the oracle read %v, %v; want evt_1 twice", got.Effects, err)
	}
}
