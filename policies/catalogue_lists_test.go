package policies

import (
	"slices"
	"testing"
)

func TestSettable(t *testing.T) {
	got := Default().Settable()
	if !slices.Contains(got, "twilio") || slices.Contains(got, "stripe") {
		t.Errorf("Settable() = %v: want twilio's, not stripe's", got)
	}
	for _, n := range got {
		if p := mustLookup(t, n); p.Retries == nil {
			t.Errorf("%s is listed, but its retries cannot be set", n)
		}
	}
}

// TestAllKeepsCatalogueOrder: All lists the catalogue's policies, a
// config file's custom ones included, in the order Names gives.
func TestAllKeepsCatalogueOrder(t *testing.T) {
	cat, err := Default().ExtendYAML("retrysim.yaml", []byte("acme: {base: stripe, schedule: {offsets: [0, 1h, 1d]}}\n"))
	if err != nil {
		t.Fatal(err)
	}
	all := cat.All()
	if !slices.Equal(Names(all), cat.Names()) || !slices.Contains(Names(all), "acme") {
		t.Errorf("All() = %v, want the catalogue's names %v, acme among them", Names(all), cat.Names())
	}
}
