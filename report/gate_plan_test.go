package report_test

import (
	"testing"

	"github.com/retrysim/retrysim/policies"
	"github.com/retrysim/retrysim/report"
	"github.com/retrysim/retrysim/scenarios"
)

// TestSendsNoAttack: a run sends something its handler must reject when
// its scenario attacks or its provider probes signatures itself
// (Discord); only a named scenario is judged.
func TestSendsNoAttack(t *testing.T) {
	look := func(name string) scenarios.Scenario {
		sc, err := scenarios.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		return sc
	}
	pol := func(name string) policies.Policy {
		p, err := policies.Default().Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	calm, forged := look(scenarios.Default), look(scenarios.Forged)
	stripe, discord := pol("stripe"), pol("discord")
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
