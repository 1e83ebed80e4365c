package scenarios_test

import (
	"testing"
	"time"

	"github.com/retrysim/retrysim/scenarios"
)

// Outages gives each outage fault's whole window, in order of start, so a
// chart can shade all of it, not only the part attempts met.
func TestOutagesAreWholeWindows(t *testing.T) {
	sc, err := scenarios.Decode("two.yaml", []byte(`name: two
faults:
  - {type: outage, start: 3h, duration: 30m}
  - {type: outage, start: 10m, duration: 2h}
  - {type: lost-response, probability: 0.2}
`))
	if err != nil {
		t.Fatal(err)
	}
	got := sc.Outages()
	want := []scenarios.Window{{From: 10 * time.Minute, To: 130 * time.Minute}, {From: 3 * time.Hour, To: 210 * time.Minute}}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("Outages() = %v, want %v", got, want)
	}
	happy, err := scenarios.Lookup("happy")
	if err != nil {
		t.Fatal(err)
	}
	if w := happy.Outages(); len(w) != 0 {
		t.Errorf("happy has outages %v", w)
	}
}
