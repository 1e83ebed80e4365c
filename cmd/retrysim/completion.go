package main

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/retrysim/retrysim/policies"
	"github.com/retrysim/retrysim/report"
	"github.com/retrysim/retrysim/scenarios"
	"github.com/retrysim/retrysim/simulator/demo"
)

// completions gives shell completion the values a flag or argument takes,
// from the catalogues: the built-in policies and scenarios, the formats,
// gates, demo modes, charts and row kinds.
func completions(root *cobra.Command) {
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for name, values := range flagValues(c) {
			if c.Flags().Lookup(name) == nil {
				continue
			}
			list := name == "provider" || name == "fail-on"
			_ = c.RegisterFlagCompletionFunc(name, complete(values, list))
		}
		if c.Name() == "show" && c.HasParent() {
			switch c.Parent().Name() {
			case "policies":
				c.ValidArgsFunction = completeNames(policies.Builtin)
			case "scenarios":
				c.ValidArgsFunction = completeNames(scenarios.Builtin)
			}
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
}

// flagValues are the values of c's flags that complete from a list.
func flagValues(c *cobra.Command) map[string]func() []string {
	formats := reportFormats
	switch c.Name() {
	case "ttl":
		formats = func() []string { return report.TTLFormats() }
	case "policies", "show":
		formats = func() []string { return report.PolicyFormats() }
	}
	v := map[string]func() []string{
		"provider": func() []string { return append(policies.Builtin(), "all") },
		"scenario": scenarios.Builtin,
		"format":   formats,
		"fail-on":  func() []string { return strings.Split(report.GateNames(), ", ") },
		"demo":     demo.ModeNames,
		"mode":     demo.ModeNames,
		"by":       func() []string { return []string{report.ByEvent, report.ByTenant} },
	}
	if c.Name() != "policies" { // there --chart names a file
		v["chart"] = func() []string { return report.Charts() }
	}
	return v
}

// complete completes one value from values, or with list the last of a
// comma-separated list, keeping what was typed before it.
func complete(values func() []string, list bool) cobra.CompletionFunc {
	return func(_ *cobra.Command, _ []string, toComplete string) ([]string, cobra.ShellCompDirective) {
		head, last := "", toComplete
		if i := strings.LastIndex(toComplete, ","); list && i >= 0 {
			head, last = toComplete[:i+1], toComplete[i+1:]
		}
		var out []string
		for _, v := range values() {
			if strings.HasPrefix(v, last) {
				out = append(out, head+v)
			}
		}
		d := cobra.ShellCompDirectiveNoFileComp
		if list {
			d |= cobra.ShellCompDirectiveNoSpace
		}
		return out, d
	}
}

// completeNames completes a command's one argument from names.
func completeNames(names func() []string) cobra.CompletionFunc {
	return func(_ *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
		if len(args) > 0 {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		return complete(names, false)(nil, nil, toComplete)
	}
}
