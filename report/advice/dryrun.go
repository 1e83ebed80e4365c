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
	if d.URL {
		refuse("--url", "a dry run sends nothing, so nothing would reach it")
	}
	if d.Exec {
		refuse("--exec", "a dry run sends nothing, so there is no handler to start")
	}
	if d.Demo {
		refuse("--demo", "a dry run models the handler instead of serving a demo one")
	}
	if d.DemoTTL {
		refuse("--demo-ttl", "a dry run serves no demo handler")
	}
	if d.EffectsURL {
		refuse("--effects-url", "a dry run sends nothing, so there are no side effects to ask about")
	}
	if d.Realtime {
		refuse("--realtime", "a dry run has no handler to give real time to, and would only wait the schedule out on the wall clock")
	}
	if d.AllowRemote {
		refuse("--allow-remote", "a dry run connects to no machine")
	}
	if d.MaxRPS {
		refuse("--max-rps", "a dry run sends no request to cap")
	}
	if d.Insecure {
		refuse("--insecure", "a dry run makes no TLS connection")
	}
	if d.CA {
		refuse("--ca", "a dry run makes no TLS connection")
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
