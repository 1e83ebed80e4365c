package main

import (
	"fmt"
	"time"

	"github.com/retrysim/retrysim/policies"
	"github.com/retrysim/retrysim/report/advice"
	"github.com/retrysim/retrysim/simulator"
)

// settleUsage is the help of --settle, on run and replay alike.
var settleUsage = "longest real time to wait after the last attempt for a handler behind a URL to finish its work: the effects oracle is read until every accepted event is reported and nothing changes for " +
	policies.FormatDuration(simulator.DefaultSettleQuiet) + " (or half of this, if shorter)"

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
	return advice.Span("settle", s, simulator.CheckSettle)
}
