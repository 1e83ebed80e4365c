package advice

import (
	"fmt"
	"strings"

	"github.com/retrysim/retrysim/scenarios"
)

// DryRun is what a run given --dry-run was also given: each field says a
// flag a dry run cannot take was set, and Scenario is the run's scenario.
type DryRun struct {
	URL, Exec, Demo, DemoTTL, EffectsURL bool
	Realtime, AllowRemote, MaxRPS        bool
	Insecure, CA                         bool
	Scenario                             scenarios.Scenario
}

// Refusals refuses, one line each and in the flags' order, the flags a
// dry run would ignore: it sends nothing, so a run that seemed to honour
// them would say things (a verdict, a passing gate) nothing was measured
// for. A scenario with attacks is refused too: attacks are requests.
func (d DryRun) Refusals() []error {
	var errs []error
	refuse := func(flag, why string) {
		errs = append(errs, fmt.Errorf("%s: %s (drop it, or drop --dry-run)", flag, why))
	}
	for _, r := range []struct {
		given     bool
		flag, why string
	}{
		{d.URL, "--url", "a dry run sends nothing, so nothing would reach it"},
		{d.Exec, "--exec", "a dry run sends nothing, so there is no handler to start"},
		{d.Demo, "--demo", "a dry run models the handler instead of serving a demo one"},
		{d.DemoTTL, "--demo-ttl", "a dry run serves no demo handler"},
		{d.EffectsURL, "--effects-url", "a dry run sends nothing, so there are no side effects to ask about"},
		{d.Realtime, "--realtime", "a dry run has no handler to give real time to, and would only wait the schedule out on the wall clock"},
		{d.AllowRemote, "--allow-remote", "a dry run connects to no machine"},
		{d.MaxRPS, "--max-rps", "a dry run sends no request to cap"},
		{d.Insecure, "--insecure", "a dry run makes no TLS connection"},
		{d.CA, "--ca", "a dry run makes no TLS connection"},
	} {
		if r.given {
			refuse(r.flag, r.why)
		}
	}
	if attacks := d.Scenario.Attacks(); len(attacks) > 0 {
		names := make([]string, len(attacks))
		for i, a := range attacks {
			names[i] = a.Name()
		}
		refuse("--scenario "+d.Scenario.Name, "its attacks ("+strings.Join(names, ", ")+") are requests, and a dry run sends none")
	}
	return errs
}
