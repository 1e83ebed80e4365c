package report

import (
	"fmt"

	"github.com/retrysim/retrysim/simulator"
)

// GateRequest is which gates to check, as a user gave them: the gates'
// names (ParseGates) and the dedup TTL the handler uses, "" for none
// (ParseTTL).
type GateRequest struct {
	Names         []string
	TTLConfigured string
}

// Parse reads r into the gates and their options, reporting every
// problem, each naming its setting as sp spells it: a gate or TTL that
// does not parse, a gate that needs the TTL not given (GatePlan.Refusals),
// and, when junit asks for the gates as JUnit, no gate to report.
func (r GateRequest) Parse(junit bool, sp simulator.Spelling) ([]Gate, GateOptions, []error) {
	var errs []error
	opts := GateOptions{Spelling: sp}
	gates, err := ParseGates(r.Names)
	if err != nil {
		errs = append(errs, fmt.Errorf("%s: %w", sp.Of(SettingGates), err))
	}
	if r.TTLConfigured != "" {
		if d, err := ParseTTL(r.TTLConfigured); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", sp.Of(SettingTTLConfigured), err))
		} else {
			opts.TTLConfigured = d
		}
	}
	errs = append(errs, GatePlan{NoTTL: r.TTLConfigured == ""}.Refusals(gates, sp)...)
	if junit && len(gates) == 0 {
		errs = append(errs, fmt.Errorf("%s %s reports the %s gates: name at least one (valid: %s)", sp.Of(SettingFormat), FormatJUnit, sp.Of(SettingGates), GateNames()))
	}
	return gates, opts, errs
}
