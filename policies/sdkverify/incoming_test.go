package sdkverify

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/retrysim/retrysim/policies"
	"github.com/retrysim/retrysim/policies/policytest"
	"github.com/retrysim/retrysim/simulator"
)

// TestOfficialVerifiersAcceptResentRealDeliveries feeds a run real
// deliveries, as retrysim proxy does with what stripe listen or gh webhook
// forward brings in: every attempt the engine makes of them, retries
// included, is re-signed so that the provider's official verifier accepts
// it, and a scheme with a timestamp gets a signature of its own on each.
func TestOfficialVerifiersAcceptResentRealDeliveries(t *testing.T) {
	for _, tc := range verifiers {
		t.Run(tc.policy, func(t *testing.T) {
			pol := policytest.Lookup(t, tc.policy)
			secret := policies.GenerateSecret(pol.Provider, 9)
			ok := okStatus(&pol)
			h := &handler{t: t, wire: pol.Wire(), secret: secret, ok: ok, seen: map[string]int{}}
			srv := httptest.NewServer(h)
			defer srv.Close()
			target := srv.URL + "/webhooks/" + pol.Provider + tc.fragment
			w := pol.Wire()
			in := make(chan simulator.Incoming, 4)
			for i := range 4 {
				ev := policies.Event{Seq: i, Seed: uint64(77 + i), Type: w.DefaultEventType(), Created: time.Now()}
				w.NewEvent(&ev)
				body, ctype := w.Body(ev)
				hd := http.Header{"Content-Type": {ctype}}
				w.Header(hd, policies.Delivery{Event: ev, N: 1, Body: body, URL: "https://tunnel.example/webhooks", Secret: secret, SignedAt: time.Now()})
				id, err := w.DedupID(hd, body)
				if err != nil {
					t.Fatal(err)
				}
				in <- simulator.Incoming{ID: id, Type: ev.Type, Body: body, Header: hd}
			}
			close(in)
			var records []simulator.Record
			res, err := simulator.Run(context.Background(), simulator.Config{
				Policy: pol, URL: target, Secret: secret, Incoming: in,
				Sink: func(r *simulator.Record) error { records = append(records, *r); return nil },
			})
			if err != nil {
				t.Fatal(err)
			}
			h.mu.Lock()
			defer h.mu.Unlock()
			for i, a := range h.arrivals {
				if a.err != nil && !probe(records, a.dedup) {
					t.Errorf("request %d (delivery %s) rejected by the official verifier: %v", i+1, a.dedup, a.err)
				}
			}
			if pol.MaxAttempts() > 1 && res.Delivered != 4 {
				t.Errorf("%d of 4 deliveries delivered: the handler answers 500 once, then accepts", res.Delivered)
			}
			if tc.stamped != "" {
				signedOnce(t, tc.stamped, records, h.arrivals, map[string]bool{})
			}
		})
	}
}

// probe reports whether dedup is the id of the provider's own
// invalid-signature probe in records.
func probe(records []simulator.Record, dedup string) bool {
	for _, r := range records {
		if r.Kind == simulator.KindAttack && r.Probe && r.EventID == dedup {
			return true
		}
	}
	return false
}

// okStatus is the answer pol counts as delivered: 200, or 204 where only
// that one is (Discord's webhook events).
func okStatus(pol *policies.Policy) int {
	if pol.Succeeded(http.StatusNoContent) && !pol.Succeeded(http.StatusOK) {
		return http.StatusNoContent
	}
	return http.StatusOK
}
