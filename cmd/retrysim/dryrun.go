package main

import "github.com/retrysim/retrysim/report/advice"

// validateDryRun refuses the flags a dry run would ignore
// (advice.DryRun.Refusals).
func (f *runFlags) validateDryRun(p *plan) []error {
	if !f.dryRun {
		return nil
	}
	given := f.given
	if given == nil {
		given = func(string) bool { return false }
	}
	return advice.DryRun{
		URL: f.url != "", Exec: f.exec != "", Demo: given("demo"), DemoTTL: given("demo-ttl"), EffectsURL: f.effectsURL != "",
		Realtime: f.realtime, AllowRemote: f.allowRemote, MaxRPS: given("max-rps"), Insecure: f.insecure, CA: f.ca != "",
		Scenario: p.scenario,
	}.Refusals()
}
