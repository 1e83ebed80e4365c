package report_test

import (
	"testing"

	"github.com/retrysim/retrysim/policies"
	"github.com/retrysim/retrysim/policies/policytest"
	"github.com/retrysim/retrysim/report"
	"github.com/retrysim/retrysim/scenarios"
	"github.com/retrysim/retrysim/scenarios/scenariotest"
)

// TestSendsNoAttack: a run sends something its handler must reject when
// its scenario attacks or its provider probes signatures itself
// (Discord); only a named scenario is judged.
func TestSendsNoAttack(t *testing.T) {
	calm, forged := scenariotest.Lookup(t, scenarios.Default), scenariotest.Lookup(t, scenarios.Forged)
	stripe, discord := policytest.Lookup(t, "stripe"), policytest.Lookup(t, "discord")
	if discord.SignatureProbe == nil {
		t.Fatal("discord no longer probes signatures: pick another prober")
	}
	for _, tc := range []struct {
		name string
		sc   scenarios.Scenario
		pols []policies.Policy
		want bool
	}{
		{"calm stripe", calm, []policies.Policy{stripe}, true},
		{"forged stripe", forged, []policies.Policy{stripe}, false},
		{"calm discord", calm, []policies.Policy{stripe, discord}, false},
		{"no scenario", scenarios.Scenario{}, []policies.Policy{stripe}, false},
	} {
		if got := report.SendsNoAttack(tc.sc, tc.pols); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}
