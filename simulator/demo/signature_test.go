package demo_test

import (
	"context"
	"net/http/httptest"
	"slices"
	"testing"
	"time"

	"github.com/retrysim/retrysim/policies"
	"github.com/retrysim/retrysim/report"
	"github.com/retrysim/retrysim/scenarios/scenariotest"
	"github.com/retrysim/retrysim/simulator"
	"github.com/retrysim/retrysim/simulator/demo"
)

// TestSignatureCheckEveryWire runs the forged scenario against the demo
// handler for every wire format: the idempotent mode verifies signatures
// and enforces the check; the unverified mode, the same but for the check,
// lets the forgeries through and stays idempotent.
func TestSignatureCheckEveryWire(t *testing.T) {
	forged := scenariotest.Lookup(t, "forged")
	for _, wire := range policies.WireNames() {
		pol, err := policies.Lookup(wire) // every wire has a policy of its name
		if err != nil {
			t.Fatalf("no policy named after the %s wire: %v", wire, err)
		}
		for _, mode := range []demo.Mode{demo.Idempotent, demo.Unverified} {
			t.Run(wire+"/"+string(mode), func(t *testing.T) {
				t.Parallel()
				secret := policies.GenerateSecret(wire, 1)
				h, err := demo.New(mode, demo.WithSecret(wire, secret))
				if err != nil {
					t.Fatal(err)
				}
				defer h.Close()
				srv := httptest.NewServer(h)
				defer srv.Close()
				agg := report.NewAggregator()
				_, err = simulator.Run(context.Background(), simulator.Config{
					Policy: pol, Scenario: forged, URL: srv.URL + demo.WebhookPath + wire, Events: 4, Over: time.Minute,
					Secret: secret, Effects: h.Effects, Sink: agg.Add,
					// The idempotent and unverified modes write their
					// effects before they answer: settled at once.
					SettleQuiet: 20 * time.Millisecond,
				})
				if err != nil {
					t.Fatal(err)
				}
				r := agg.Runs()[0]
				// The attacks' own effects are no duplicates.
				if r.Verdict() == report.NotIdempotent {
					t.Errorf("verdict %s: offenders %v", r.Verdict(), r.Offenders())
				}
				switch mode {
				case demo.Idempotent:
					if r.SignatureCheck() != report.SignatureEnforced {
						t.Errorf("signature check %s: %s", r.SignatureCheck(), r.SignatureLine())
					}
				default:
					want := "bad-signature"
					if pol.SignatureProbe != nil {
						want = report.ProbeName // removed before any attack could be sent
					}
					if r.SignatureCheck() != report.SignatureNotEnforced || !slices.Contains(r.ForgedAccepted(), want) {
						t.Errorf("signature check %s, accepted %v; want not_enforced with %s: %s", r.SignatureCheck(), r.ForgedAccepted(), want, r.SignatureLine())
					}
				}
			})
		}
	}
}
