package advice

import (
	"fmt"
	"strings"

	"github.com/retrysim/retrysim/report"
)

// gateHelp is what each gate checks, in words short enough for --help.
var gateHelp = map[report.Gate]string{
	report.GateDuplicateEffects: "an event was processed more than once (needs the effects oracle)",
	report.GateLostEvents:       "an event was never delivered (retries exhausted, endpoint disabled)",
	report.GateSlowResponses: "the handler itself kept the provider waiting past its timeout " +
		"(no answer in time, or an answer measured slower; injected latency aside)",
	report.GateRedirects: "a delivery failed on a 3xx the provider does not follow",
	report.GateTTLTooShort: "--ttl-configured is shorter than the provider's retry window or " +
		"the longest wait from a key to a duplicate seen in the run",
	report.GateForgedAccepted: "a forged, tampered, unsigned, stale or replayed request got a 2xx its " +
		"signature should have prevented, or caused a side effect (needs attacks: " +
		"--scenario forged, or Discord's own probe)",
}

// GatesHelp lists every gate (report.Gates) with what it checks, a gate a
// paragraph, each line at most width runes and indented two spaces: the
// block the commands' --help shows under --fail-on. The words name flags,
// so they are here rather than in report, which owns the gates.
func GatesHelp(width int) string {
	name := 0
	for _, g := range report.Gates() {
		name = max(name, len(g))
	}
	var b strings.Builder
	for _, g := range report.Gates() {
		lead := fmt.Sprintf("  %-*s  ", name, g)
		for i, line := range report.WrapWords(gateHelp[g], width-len(lead)) {
			if i > 0 {
				lead = strings.Repeat(" ", len(lead))
			}
			b.WriteString(lead + line + "\n")
		}
	}
	return strings.TrimSuffix(b.String(), "\n")
}
