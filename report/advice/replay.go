package advice

import (
	"errors"
	"fmt"
	"slices"

	"github.com/retrysim/retrysim/report"
	"github.com/retrysim/retrysim/simulator/oracle"
)

// ReplayOracle refuses a database as replay's --effects-url: replay reads
// an HTTP oracle only, and a database URL is no URL it could read.
func ReplayOracle(effectsURL string) error {
	if oracle.IsDatabaseURL(effectsURL) {
		return errors.New(`--effects-url: replay reads its effects from a URL answering {"<dedup id>": <times processed>}, not from a database; run and proxy read one (postgres://, mysql://, sqlite:PATH) with --effects-query`)
	}
	return nil
}

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
