// Package advice turns the library's reasons into the retrysim command's
// advice: report and simulator name a setting for what it is
// (simulator.Setting) and the command spells it as the flag that sets it.
// It is the one place in the module, beside cmd, that knows the flags'
// names, so that the reports the command writes and the report package's
// golden files say the same. The rules on the flags' values that are no
// library's (the flags a dry run refuses, the shards a run of N tenants
// may take, proxy's own flags, ...) are decided here too, each with its
// words; cmd hands over the values and prints what comes back.
package advice

import (
	"github.com/retrysim/retrysim/report"
	"github.com/retrysim/retrysim/scenarios"
	"github.com/retrysim/retrysim/simulator"
	"github.com/retrysim/retrysim/simulator/proxy"
)

// Flag spells s as the flag that sets it (with its argument, where the
// advice names one): a simulator.Spelling. A setting the command has no
// flag for is spelled the Go way.
func Flag(s simulator.Setting) string {
	switch s {
	case simulator.SettingEffects:
		return "--effects-url"
	case simulator.SettingAllowRemote:
		return "--allow-remote"
	case simulator.SettingURL:
		return "--url"
	case simulator.SettingSecret:
		return "--secret"
	case simulator.SettingPayloads:
		return "--payload FILE or --set path=value"
	case simulator.SettingTrustCA:
		return "--ca FILE"
	case simulator.SettingInsecure:
		return "--insecure"
	case simulator.SettingEvents:
		return "--events"
	case simulator.SettingOver:
		return "--over"
	case simulator.SettingSeed:
		return "--seed"
	case simulator.SettingConcurrency:
		return "--concurrency"
	case simulator.SettingSettleLimit:
		return "--settle"
	case simulator.SettingTimes:
		return "--times"
	case simulator.SettingMaxRPS:
		return "--max-rps"
	case simulator.SettingTenants:
		return "--tenants"
	case simulator.SettingShard:
		return "--shard"
	case simulator.SettingRunID:
		return "--run-id"
	case simulator.SettingForgedScenario:
		return "--scenario " + scenarios.Forged
	case simulator.SettingFlakyScenario:
		return "--scenario " + scenarios.Default
	case report.SettingTTLConfigured:
		return "--ttl-configured"
	case report.SettingVerbose:
		return "--verbose"
	case report.SettingGates:
		return "--fail-on"
	case proxy.SettingCaptures:
		return "--captures"
	case report.SettingDryRun:
		return "--dry-run"
	case report.SettingFormat:
		return "--format"
	case report.SettingOut:
		return "--out"
	case report.SettingChart:
		return "--chart"
	case report.SettingBy:
		return "--by"
	case report.SettingTTLs:
		return "--ttl"
	}
	return string(s)
}

// Target says why a target was refused in the command's words: a
// *simulator.RemoteTargetError (as CheckTarget returns it) names
// --allow-remote; any other error is returned as it is. The result still matches what err matched.
func Target(err error) error {
	rt, ok := err.(*simulator.RemoteTargetError)
	if !ok {
		return err
	}
	return &spelled{err: err, msg: rt.Spell(Flag)}
}

// spelled is an error said in the command's words.
type spelled struct {
	err error
	msg string
}

func (e *spelled) Error() string { return e.msg }
func (e *spelled) Unwrap() error { return e.err }
