package simulator_test

import (
	"context"
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
