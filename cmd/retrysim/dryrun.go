package main

import (
	"fmt"
	"strings"
)

// validateDryRun refuses, one line each, the flags a dry run would ignore:
// it sends nothing, so a run that seemed to honour them would say things
// (a verdict, a passing gate) nothing was measured for.
func (f *runFlags) validateDryRun(p *plan) []error {
	if !f.dryRun {
		return nil
	}
	given := f.given
	if given == nil {
		given = func(string) bool { return false }
	}
	var errs []error
	refuse := func(flag, why string) {
		errs = append(errs, fmt.Errorf("%s: %s (drop it, or drop --dry-run)", flag, why))
	}
	if f.url != "" {
		refuse("--url", "a dry run sends nothing, so nothing would reach it")
	}
	if f.exec != "" {
		refuse("--exec", "a dry run sends nothing, so there is no handler to start")
	}
	if given("demo") {
		refuse("--demo", "a dry run models the handler instead of serving a demo one")
	}
	if given("demo-ttl") {
		refuse("--demo-ttl", "a dry run serves no demo handler")
	}
	if f.effectsURL != "" {
		refuse("--effects-url", "a dry run sends nothing, so there are no side effects to ask about")
	}
	if f.realtime {
		refuse("--realtime", "a dry run has no handler to give real time to, and would only wait the schedule out on the wall clock")
	}
	if f.allowRemote {
		refuse("--allow-remote", "a dry run connects to no machine")
	}
	if given("max-rps") {
		refuse("--max-rps", "a dry run sends no request to cap")
	}
	if f.insecure {
		refuse("--insecure", "a dry run makes no TLS connection")
	}
	if f.ca != "" {
		refuse("--ca", "a dry run makes no TLS connection")
	}
	if attacks := p.scenario.Attacks(); len(attacks) > 0 {
		names := make([]string, len(attacks))
		for i, a := range attacks {
			names[i] = a.Name()
		}
		refuse("--scenario "+p.scenario.Name, "its attacks ("+strings.Join(names, ", ")+") are requests, and a dry run sends none")
	}
	return errs
}
