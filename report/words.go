package report

import (
	"fmt"
	"slices"
	"strings"

	"github.com/retrysim/retrysim/simulator"
)

// Facts and words. A run's figures are gathered as its records come
// (summary.go), and its verdicts are decided as values from them
// (judgement.go, gates.go, signature_verdict.go, refused.go); every sentence a
// report shows is written from those values in a words_*.go file, one per
// kind of sentence, and the writers (text.go, markdown.go, json.go, ...)
// lay the sentences out. No decision reads a sentence.
//
// A sentence that advises changing a setting names it the caller's way
// (simulator.Spelling): a Go program reads Config.Effects, the retrysim
// command --effects-url.

// The settings of a report that its advice names, besides the engine's
// (simulator.Setting).
const (
	// SettingTTLConfigured is the dedup TTL the handler uses, for the
	// ttl-too-short gate.
	SettingTTLConfigured simulator.Setting = "GateOptions.TTLConfigured"
	// SettingVerbose makes the text report the full one.
	SettingVerbose simulator.Setting = "Report.Verbose"
	// SettingGates are the gates checked against the runs.
	SettingGates simulator.Setting = "CheckGates"
	// SettingDryRun models the handler and sends nothing (the engine's
	// Config.DryRun), named when a gate cannot be checked on a dry run.
	SettingDryRun simulator.Setting = "Config.DryRun"
	// SettingFormat is the format a report is written in
	// (output.Request.Format).
	SettingFormat simulator.Setting = "output.Request.Format"
	// SettingOut names the files a report is also written to, each in the
	// format its name says (output.Request.Files).
	SettingOut simulator.Setting = "output.Request.Files"
	// SettingChart is the chart a picture draws (ChartOptions.Chart).
	SettingChart simulator.Setting = "ChartOptions.Chart"
	// SettingBy is what a timeline chart's rows are (ChartOptions.By).
	SettingBy simulator.Setting = "ChartOptions.By"
	// SettingTTLs are the dedup TTL choices a report compares
	// (Report.TTLs).
	SettingTTLs simulator.Setting = "Report.TTLs"
)

// Settings lists every setting the reports' advice may name, the engine's
// and their own: a caller that spells them its own way spells all of these.
func Settings() []simulator.Setting {
	return []simulator.Setting{
		simulator.SettingEffects, simulator.SettingAllowRemote, simulator.SettingURL, simulator.SettingPayloads, simulator.SettingSecret,
		simulator.SettingTrustCA, simulator.SettingInsecure, simulator.SettingEvents,
		simulator.SettingOver, simulator.SettingSeed, simulator.SettingConcurrency, simulator.SettingSettleLimit,
		simulator.SettingTimes, simulator.SettingMaxRPS,
		simulator.SettingTenants, simulator.SettingShard, simulator.SettingRunID,
		simulator.SettingForgedScenario, simulator.SettingFlakyScenario,
		SettingTTLConfigured, SettingVerbose, SettingGates, SettingDryRun,
		SettingFormat, SettingOut, SettingChart, SettingBy, SettingTTLs,
	}
}

// words writes the sentences, naming settings as sp spells them.
type words struct{ sp simulator.Spelling }

// of names a setting.
func (w words) of(s simulator.Setting) string { return w.sp.Of(s) }

// words are the report's words, spelled its caller's way.
func (rep *Report) words() words { return words{sp: rep.Spelling} }

// statusList shows answers by status: "401 ×5, 200 ×1".
func statusList(m map[int]int) string {
	codes := make([]int, 0, len(m))
	for c := range m {
		codes = append(codes, c)
	}
	slices.SortFunc(codes, func(a, b int) int {
		if m[a] != m[b] {
			return m[b] - m[a]
		}
		return a - b
	})
	parts := make([]string, len(codes))
	for i, c := range codes {
		parts[i] = fmt.Sprintf("%d ×%d", c, m[c])
	}
	if len(parts) == 0 {
		return "nothing"
	}
	return strings.Join(parts, ", ")
}

// allOf says all n of a thing: "the one request", "all 3 requests".
func allOf(n int, one, many string) string {
	if n == 1 {
		return "the one " + one
	}
	return "all " + counted(n, one, many)
}
