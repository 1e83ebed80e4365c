package simulator

import "github.com/retrysim/retrysim/scenarios"

// Setting is a choice a caller makes that advice may tell them to change:
// give an effects oracle, allow a remote target, send more events. It is
// named for what it is; how it is spelled is the caller's (a Go program
// sets a field of Config, the retrysim command passes a flag), so the
// library's sentences never name a flag. Its value is the Go spelling.
type Setting string

// The settings the engine's and the reports' advice names.
const (
	// SettingEffects is the effects oracle (Config.Effects).
	SettingEffects Setting = "Config.Effects"
	// SettingAllowRemote lets the engine send to another machine.
	SettingAllowRemote Setting = "Config.AllowRemote"
	// SettingURL is the handler's URL, whose path a refusing handler may
	// not serve.
	SettingURL Setting = "Config.URL"
	// SettingPayloads are the user's own payloads (Config.Payloads): a
	// handler that answers 404 about an object it does not know needs
	// one it knows.
	SettingPayloads Setting = "Config.Payloads"
	// SettingSecret is the signing secret the deliveries are signed with.
	SettingSecret Setting = "Config.Secret"
	// SettingTrustCA makes the engine trust a target's certificate
	// authority.
	SettingTrustCA Setting = "Config.TLS (RootCAs)"
	// SettingInsecure skips the check of a target's certificate.
	SettingInsecure Setting = "Config.TLS (InsecureSkipVerify)"
	// SettingEvents is how many events a run delivers.
	SettingEvents Setting = "Config.Events"
	// SettingOver is the span of virtual time the events are spread over.
	SettingOver Setting = "Config.Over"
	// SettingSeed is the seed that decides the timeline and every fault.
	SettingSeed Setting = "Config.Seed"
	// SettingConcurrency caps the requests in flight.
	SettingConcurrency Setting = "Config.Concurrency"
	// SettingSettleLimit is how long the effects oracle may take to settle.
	SettingSettleLimit Setting = "Config.SettleLimit"
	// SettingTimes is how many times a replay sends its delivery.
	SettingTimes Setting = "ReplayConfig.Times"
	// SettingMaxRPS caps the requests sent per second.
	SettingMaxRPS Setting = "Config.MaxRPS"
	// SettingForgedScenario is the built-in scenario that sends the
	// requests a handler must reject.
	SettingForgedScenario Setting = `Config.Scenario "` + scenarios.Forged + `"`
	// SettingFlakyScenario is the built-in scenario whose lost answers
	// bring duplicates to the handler.
	SettingFlakyScenario Setting = `Config.Scenario "` + scenarios.Default + `"`
)

// Spelling says how a caller spells each Setting: nil spells it the Go way
// (its own value); the retrysim command spells it as a flag.
type Spelling func(Setting) string

// Of spells s.
func (sp Spelling) Of(s Setting) string {
	if sp == nil {
		return string(s)
	}
	return sp(s)
}
