package report

import (
	"github.com/retrysim/retrysim/policies"
	"github.com/retrysim/retrysim/scenarios"
)

// SendsNoAttack reports whether a run of pols under the scenario sc sends
// no request the handler must reject (GatePlan.NoAttack): sc is named and
// has no attack, and no policy sends a signature probe of its own
// (Discord's). A run with no scenario named is not judged: false.
func SendsNoAttack(sc scenarios.Scenario, pols []policies.Policy) bool {
	if sc.Name == "" || len(sc.Attacks()) > 0 {
		return false
	}
	for _, pol := range pols {
		if pol.SignatureProbe != nil {
			return false
		}
	}
	return true
}
