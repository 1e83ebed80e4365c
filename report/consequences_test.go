package report_test

import (
	"bytes"
	"testing"

	"github.com/retrysim/retrysim/report"
	"github.com/retrysim/retrysim/report/advice"
	"github.com/retrysim/retrysim/scenarios"
	"github.com/retrysim/retrysim/scenarios/scenariotest"
)

// consequences is a scenario with every endpoint-level consequence a report
// shows: restarts, reordered events, duplicates and manual resends.
const consequences = `name: consequences
faults:
  - {type: restart, at: [10m, 30m]}
  - {type: reorder, every: 2}
  - {type: duplicate, attempts: [2]}
  - {type: manual-redelivery, probability: 0.5, after: 2d}
`

func TestEndpointConsequences(t *testing.T) {
	blackHole := scenariotest.Lookup(t, "black-hole")
	mixed, err := scenarios.Decode("consequences.yaml", []byte(consequences))
	if err != nil {
		t.Fatal(err)
	}
	agg := report.NewAggregator(report.WithTimeline(4))
	dryRun(t, "shopify", blackHole, agg)
	dryRun(t, "stripe", mixed, agg)
	runs := agg.Runs()

	shopify, stripe := runs[0], runs[1]
	if shopify.DisabledAt.IsZero() || shopify.LostToDisable != 12 || len(shopify.LostToDisableIDs) != 12 {
		t.Errorf("shopify black-hole: disabled at %v, %d lost to it, %d listed; want a moment and all 12 events", shopify.DisabledAt, shopify.LostToDisable, len(shopify.LostToDisableIDs))
	}
	if len(stripe.Restarts) != 2 || stripe.ReorderedPairs == 0 || stripe.CopyArrivals == 0 || stripe.ManualArrivals == 0 {
		t.Errorf("stripe: restarts %v, reordered pairs %d, copies %d, manual resends %d; want 2 restarts and some of each",
			stripe.Restarts, stripe.ReorderedPairs, stripe.CopyArrivals, stripe.ManualArrivals)
	}

	rep := &report.Report{Runs: runs, Timeline: 4, Spelling: advice.Flag} // a golden: the command's words
	for _, format := range []string{report.FormatText, report.FormatJSON} {
		t.Run(format, func(t *testing.T) {
			var buf bytes.Buffer
			if err := report.Write(&buf, rep, format); err != nil {
				t.Fatal(err)
			}
			golden(t, "consequences."+map[string]string{report.FormatText: "txt", report.FormatJSON: "json"}[format], buf.Bytes())
		})
	}
}
