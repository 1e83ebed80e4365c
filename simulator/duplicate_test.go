package simulator

import (
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/retrysim/retrysim/policies/policytest"
	"github.com/retrysim/retrysim/scenarios"
)

// A duplicated attempt's two requests are in the handler at the same time,
// even at a concurrency of 1: the connection pool leaves room for both.
func TestDuplicateRequestsOverlapAtConcurrencyOne(t *testing.T) {
	var mu sync.Mutex
	in, most := 0, 0
	var peer chan struct{} // closed when a second request joins the first
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		mu.Lock()
		in++
		most = max(most, in)
		if in == 1 {
			peer = make(chan struct{})
		} else {
			close(peer)
		}
		wait := peer
		mu.Unlock()
		select {
		case <-wait:
		case <-time.After(5 * time.Second): // the other never came while this one was in
		}
		mu.Lock()
		in--
		mu.Unlock()
	}))
	defer srv.Close()
	sc, err := scenarios.Decode("dup.yaml", []byte("name: dup\nfaults: [{type: duplicate}]\n"))
	if err != nil {
		t.Fatal(err)
	}
	recs, res := collect(t, Config{Policy: policytest.Lookup(t, "stripe"), Scenario: sc, URL: srv.URL, Events: 3, Concurrency: 1})
	if res.Attempts != 6 || len(attempts(recs)) != 6 {
		t.Fatalf("%d attempts, want 3 events' attempts sent twice", res.Attempts)
	}
	if most != 2 {
		t.Errorf("at most %d requests in the handler at once; a duplicated attempt's two must overlap", most)
	}
}
