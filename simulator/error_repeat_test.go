package simulator

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/retrysim/retrysim/policies/policytest"
	"github.com/retrysim/retrysim/scenarios"
)

// TestErrorsCarryNoMeasuredTime: two runs of one seed against a handler
// that answers at different speeds give the same error fields; the
// measured time stays in latency_ms.
func TestErrorsCarryNoMeasuredTime(t *testing.T) {
	var slow atomic.Bool
	srv := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {
		if slow.Load() {
			time.Sleep(300 * time.Millisecond) // a slower handler, not a wait for virtual time
		}
	}))
	defer srv.Close()
	sc, err := scenarios.Decode("t.yaml", []byte("name: t\nfaults: [{type: latency, over_timeout: 1s, attempts: [1]}]\n"))
	if err != nil {
		t.Fatal(err)
	}
	errorsOf := func() []string {
		recs, _ := collect(t, Config{Policy: policytest.Lookup(t, "stripe"), Scenario: sc, URL: srv.URL, Events: 2, Concurrency: 2})
		var out []string
		for _, r := range attempts(recs) {
			out = append(out, r.Error)
		}
		return out
	}
	fast := errorsOf()
	slow.Store(true)
	slowErrs := errorsOf()
	if strings.Join(fast, "|") != strings.Join(slowErrs, "|") {
		t.Errorf("the errors differ between two runs of one seed:\n%q\n%q", fast, slowErrs)
	}
	if len(fast) == 0 || !strings.Contains(fast[0], "injected latency") {
		t.Errorf("the first attempt's error %q does not name the injected latency", fast)
	}
}
