package main

import (
	"fmt"
	"strings"
	"time"

	"github.com/retrysim/retrysim/policies"
	"github.com/retrysim/retrysim/simulator"
)

// settleUsage is the help of --settle, on run and replay alike.
const settleUsage = "longest real time to wait after the last attempt for a handler behind a URL to finish its work: the effects oracle is read until every accepted event is reported and nothing changes for 2s (or half of this, if shorter)"

// validateRunID reads --run-id and --settle: one run id for every
// provider of the command, fresh unless given.
func (f *runFlags) validateRunID(p *plan) []error {
	var errs []error
	p.runID = f.runID
	if p.runID == "" {
		p.runID = simulator.NewRunID()
	} else if err := simulator.CheckRunID(p.runID); err != nil {
		errs = append(errs, fmt.Errorf("--run-id: %w", err))
	}
	var err error
	if p.settle, err = parseSettle(f.settle); err != nil {
		errs = append(errs, err)
	}
	return errs
}

// parseSettle reads --settle.
func parseSettle(s string) (time.Duration, error) {
	return parseSpan("settle", s, simulator.CheckSettle)
}

// secretsNotRun refuses a --secret for a provider the command does not
// run: the user meant it for a run, and without --provider the default one
// would get deliveries signed with a secret of its own, and answer them
// all 4xx.
func secretsNotRun(secrets map[string]string, pols []policies.Policy, given func(string) bool) []error {
	others, names := policies.SecretsNotRun(secrets, pols)
	var errs []error
	for _, prov := range others {
		hint := fmt.Sprintf("add --provider %s", prov)
		if given != nil && !given("provider") {
			hint = fmt.Sprintf("--provider is not given, so the default is run; add --provider %s", prov)
		}
		errs = append(errs, fmt.Errorf("--secret %s=…: %s is not among the providers this run replays (%s); %s",
			prov, prov, strings.Join(names, ", "), hint))
	}
	return errs
}
