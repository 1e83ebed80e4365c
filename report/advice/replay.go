package advice

import (
	"fmt"
	"slices"

	"github.com/retrysim/retrysim/report"
)

// ReplayGates checks replay's --fail-on: it judges only
// duplicate-effects, and refuses it where it could never be checked
// (noOracle: a --url without --effects-url).
func ReplayGates(failOn []string, noOracle bool) []error {
	gates, err := report.ParseGates(failOn)
	if err != nil {
		return []error{fmt.Errorf("--fail-on: %w", err)}
	}
	if i := slices.IndexFunc(gates, func(g report.Gate) bool { return g != report.GateDuplicateEffects }); i >= 0 {
		return []error{fmt.Errorf("--fail-on: %s is a gate of run and report; replay checks only %s", gates[i], report.GateDuplicateEffects)}
	}
	return report.GatePlan{NoOracle: noOracle}.Refusals(gates, Flag)
}
