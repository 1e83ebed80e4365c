package simulator

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/retrysim/retrysim/policies"
	"github.com/retrysim/retrysim/policies/policytest"
	"github.com/retrysim/retrysim/scenarios/scenariotest"
)

// fakePayloads alternates two event types and writes the event's number in
// its body.
type fakePayloads struct{}

func (fakePayloads) Type(seq int) string {
	return [2]string{"orders/paid", "refunds/create"}[seq%2]
}

func (fakePayloads) Body(ev policies.Event, seed uint64) ([]byte, string) {
	return fmt.Appendf(nil, `{"seq": %d, "seed": %d, "type": %q}`, ev.Seq, seed, ev.Type), "application/json"
}

// Config.Payloads makes every body and type, the wire still signs each
// attempt, and Config.Header reaches the handler on attempts and forged
// requests alike.
func TestPayloadsAndHeader(t *testing.T) {
	pol := policytest.Lookup(t, "shopify")
	sc := scenariotest.Lookup(t, "forged")
	const secret = "0123456789abcdef0123456789abcdef"
	var mu sync.Mutex
	var problems []string
	seen := 0
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		defer mu.Unlock()
		seen++
		if r.Header.Get("X-Gateway-Token") != "tok" {
			problems = append(problems, "a request without the added header")
		}
		if pol.Wire().Verify(r.Header, body, "", secret, time.Now()) != nil {
			w.WriteHeader(http.StatusUnauthorized) // a forged one
			return
		}
		topic := r.Header.Get("X-Shopify-Topic")
		if !strings.HasPrefix(string(body), `{"seq": `) || !strings.Contains(string(body), `"seed": 5, "type": "`+topic+`"`) {
			problems = append(problems, fmt.Sprintf("body %s under topic %s", body, topic))
		}
	})
	recs, res := collect(t, Config{
		Policy: pol, Scenario: sc, Handler: h, Events: 6, Seed: 5, Secret: secret,
		Payloads: fakePayloads{}, Header: http.Header{"X-Gateway-Token": {"tok"}},
	})
	if res.Attacks == 0 || seen <= res.Attacks {
		t.Fatalf("%d requests, %d of them forged: the test saw too little", seen, res.Attacks)
	}
	for _, p := range problems {
		t.Error(p)
	}
	if recs[0].EventType != "orders/paid, refunds/create" {
		t.Errorf("run record's event type %q, want the payloads' two", recs[0].EventType)
	}
}

// A header the wire writes itself cannot be added.
func TestHeaderOfTheWireRefused(t *testing.T) {
	for _, tc := range []struct{ policy, header string }{
		{"stripe", "Stripe-Signature"}, {"github", "X-GitHub-Delivery"}, {"shopify", "x-shopify-topic"},
		{"slack", "X-Slack-Retry-Num"}, {"stripe", "Content-Type"}, {"stripe", VirtualTimeHeader},
	} {
		_, err := Run(context.Background(), Config{
			Policy: policytest.Lookup(t, tc.policy), DryRun: true, Events: 1,
			Header: http.Header{tc.header: {"x"}},
		})
		if !errors.Is(err, ErrConfig) || !errors.Is(err, ErrHeader) {
			t.Errorf("%s with %s: %v", tc.policy, tc.header, err)
		}
	}
	stripe := policytest.Lookup(t, "stripe")
	if err := CheckHeaders(stripe.Wire(), http.Header{"X-Gateway-Token": {"tok"}}); err != nil {
		t.Errorf("a header of the user's refused: %v", err)
	}
}
