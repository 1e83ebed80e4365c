package main

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/retrysim/retrysim/policies"
	"github.com/retrysim/retrysim/report/advice"
	"github.com/retrysim/retrysim/scenarios"
)

// completionExamples ends cobra's completion command's help in examples,
// as retrysim's own commands' help does (TestHelpExamples runs them): each
// shell's command writes its script to stdout, and its own --help says how
// to load it.
const completionExamples = `
Examples:
  retrysim completion bash > retrysim.bash
  retrysim completion zsh > _retrysim
  retrysim completion fish > retrysim.fish
  retrysim completion powershell > retrysim.ps1
  retrysim completion bash --help`

// completions gives shell completion the values a flag or argument takes,
// from the catalogues (advice.Completions), and the completion command
// its examples.
func completions(root *cobra.Command) {
	root.InitDefaultCompletionCmd()
	for _, c := range root.Commands() {
		if c.Name() == "completion" {
			c.Long = strings.TrimRight(c.Long, "\n") + "\n" + completionExamples
		}
	}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for name, values := range advice.Completions(c.Name()) {
			if c.Flags().Lookup(name) == nil {
				continue
			}
			_ = c.RegisterFlagCompletionFunc(name, complete(values, advice.IsList(name)))
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

// complete completes one value from values, or with list the last of a
// comma-separated list, keeping what was typed before it (advice.Complete).
func complete(values func() []string, list bool) cobra.CompletionFunc {
	return func(_ *cobra.Command, _ []string, toComplete string) ([]string, cobra.ShellCompDirective) {
		d := cobra.ShellCompDirectiveNoFileComp
		if list {
			d |= cobra.ShellCompDirectiveNoSpace
		}
		return advice.Complete(values(), list, toComplete), d
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
