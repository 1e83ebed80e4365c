package main

import (
	"errors"

	"github.com/spf13/pflag"

	"github.com/retrysim/retrysim/report"
	"github.com/retrysim/retrysim/report/advice"
)

// gateFlags are --fail-on and --ttl-configured, which run and report share:
// a saved results stream is judged as the run that wrote it would have been.
type gateFlags struct {
	failOn    []string
	ttlConfig string
}

func (g *gateFlags) add(fl *pflag.FlagSet) {
	fl.StringSliceVar(&g.failOn, "fail-on", nil, "exit 1 when one of these gates fails, comma-separated: "+report.GateNames())
	fl.StringVar(&g.ttlConfig, "ttl-configured", "", "the dedup TTL your handler uses, for the ttl-too-short gate (e.g. 24h)")
}

// parse reads the gates and the configured TTL (report.GateRequest);
// junit says --format junit was asked for, which needs a gate to report.
func (g *gateFlags) parse(junit bool) ([]report.Gate, report.GateOptions, []error) {
	return report.GateRequest{Names: g.failOn, TTLConfigured: g.ttlConfig}.Parse(junit, advice.Flag)
}

// junitFormat handles --format junit, which run and report write to stdout
// besides the report formats: the other output flags are checked as for
// text, and every --out file is written as for any format.
func junitFormat(of *outputFlags) (junit bool) {
	if of.format != report.FormatJUnit {
		return false
	}
	of.format = report.FormatText
	return true
}

// gateError is the exit-1 error when a gate did not pass, naming each one
// with its run (report.GatesFailed); nil when every gate passed.
func gateError(results []report.GateResult) error {
	if msg := report.GatesFailed(results); msg != "" {
		return &exitError{code: exitGate, err: errors.New(msg)}
	}
	return nil
}
