package advice

import (
	"strings"

	"github.com/retrysim/retrysim/policies"
	"github.com/retrysim/retrysim/report"
	"github.com/retrysim/retrysim/report/output"
	"github.com/retrysim/retrysim/scenarios"
	"github.com/retrysim/retrysim/simulator/demo"
)

// Completions are the values the flags of command complete from, by flag
// name, from the catalogues: the built-in policies and scenarios, the
// formats command writes, the gates, demo modes, charts and row kinds. A
// flag the command does not have is the caller's to skip.
func Completions(command string) map[string]func() []string {
	formats := output.ReportFormats
	switch command {
	case "ttl":
		formats = func() []string { return report.TTLFormats() }
	case "policies", "show":
		formats = func() []string { return report.PolicyFormats() }
	}
	v := map[string]func() []string{
		"provider": func() []string { return append(policies.Builtin(), "all") },
		"scenario": scenarios.Builtin,
		"format":   formats,
		"fail-on":  func() []string { return strings.Split(report.GateNames(), ", ") },
		"demo":     demo.ModeNames,
		"mode":     demo.ModeNames,
		"by":       func() []string { return []string{report.ByEvent, report.ByTenant} },
	}
	if command != "policies" { // there --chart names a file
		v["chart"] = func() []string { return report.Charts() }
	}
	return v
}

// IsList reports whether flag takes a comma-separated list, whose last
// element is the one completed.
func IsList(flag string) bool { return flag == "provider" || flag == "fail-on" }

// Complete is the values that complete toComplete: those of values that
// start with it, or with list, those that start with the last element of
// a comma-separated list, each after the elements typed before it.
func Complete(values []string, list bool, toComplete string) []string {
	head, last := "", toComplete
	if i := strings.LastIndex(toComplete, ","); list && i >= 0 {
		head, last = toComplete[:i+1], toComplete[i+1:]
	}
	var out []string
	for _, v := range values {
		if strings.HasPrefix(v, last) {
			out = append(out, head+v)
		}
	}
	return out
}
