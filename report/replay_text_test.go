package report_test

import (
	"strings"
	"testing"

	"github.com/retrysim/retrysim/report"
	"github.com/retrysim/retrysim/simulator"
)

// A replay's header counts its sends in words that agree with the number:
// one send is "1 send", more are "sends", whether scheduled or at once.
func TestReplayTextCountsSends(t *testing.T) {
	for _, tc := range []struct {
		times      int
		concurrent bool
		want       string
	}{
		{1, false, "1 send on stripe's retry schedule"},
		{3, false, "3 sends on stripe's retry schedule"},
		{1, true, "1 send at once"},
		{4, true, "4 sends at once"},
	} {
		r := &simulator.ReplayResult{Provider: "stripe", Policy: "stripe", DedupID: "evt_1", DedupField: "id", Times: tc.times, Concurrent: tc.concurrent}
		var b strings.Builder
		if err := report.WriteReplayText(&b, r, "http://127.0.0.1:1/", nil); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(b.String(), tc.want) {
			t.Errorf("times %d, concurrent %v: the header does not say %q:\n%s", tc.times, tc.concurrent, tc.want, b.String())
		}
	}
}
