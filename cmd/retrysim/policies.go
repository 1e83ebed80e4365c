package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/retrysim/retrysim/policies"
	"github.com/retrysim/retrysim/report"
	"github.com/retrysim/retrysim/report/outfile"
)

func newPoliciesCmd() *cobra.Command {
	var format, chart string
	var full bool
	cmd := &cobra.Command{
		Use:   "policies",
		Short: "List the providers' retry policies",
		Long: `Policies lists every retry policy, the product's named defaults and the documented
variants side by side, with the custom ones of the config file (policies: in retrysim.yaml
or --config FILE): attempts, the span of the schedule, the timeout, when the provider
disables the endpoint, and how long manual redelivery stays possible. 'policies show NAME'
prints one policy's worked schedule and its sources; --all prints every policy that way after
the list (the JSON always carries each schedule's delays and elapsed times).

Examples:
  retrysim policies
  retrysim policies --format markdown --all > policies.md
  retrysim policies show stripe
  retrysim policies show shopify-2024 --format json
  retrysim policies --chart schedules.png`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			st, err := loadConfig(cmd)
			if err != nil {
				return err
			}
			if err := formatFlag(format, report.PolicyFormats()); err != nil {
				return badInput(err)
			}
			all := st.allPolicies()
			if chart != "" {
				if err := writeSchedulesChart(chart, all); err != nil {
					return err
				}
			}
			if err := report.WritePolicies(cmd.OutOrStdout(), all, format, full); err != nil || full || format == report.FormatJSON || format == report.FormatMarkdown {
				return err
			}
			// Under the overview alone, where the details are.
			_, err = fmt.Fprintln(cmd.OutOrStdout(), "\n'retrysim policies show NAME' prints a policy's worked schedule and sources; --all prints them all.")
			return err
		},
	}
	cmd.Flags().StringVar(&format, "format", "text", "output format: "+strings.Join(report.PolicyFormats(), ", "))
	cmd.Flags().BoolVar(&full, "all", false, "after the list, print every policy in full: worked schedule, rules and sources")
	cmd.Flags().StringVar(&chart, "chart", "", "also draw every policy's attempt times on one time axis to FILE (.png or .svg)")
	var showFormat string
	show := &cobra.Command{
		Use:   "show NAME",
		Short: "Show one policy's worked schedule, rules and sources",
		Long: `Show prints one policy: every attempt with its delay and elapsed time (every attempt
failing), the timeout, what counts as success, the stop signals, the disable rule, the
manual-redelivery window, and where each number comes from.

Examples:
  retrysim policies show stripe
  retrysim policies show github --format json
  retrysim policies show svix --format markdown`,
		Args: oneArg("the name of a policy, e.g. stripe ('retrysim policies' lists them)"),
		RunE: func(cmd *cobra.Command, args []string) error {
			st, err := loadConfig(cmd)
			if err != nil {
				return err
			}
			if err := formatFlag(showFormat, report.PolicyFormats()); err != nil {
				return badInput(err)
			}
			p, err := st.policy(args[0])
			if err != nil {
				return badInput(fmt.Errorf("unknown policy %q (valid: %s)", args[0], strings.Join(st.catalogue.Names(), ", ")))
			}
			return report.WritePolicy(cmd.OutOrStdout(), &p, showFormat)
		},
	}
	show.Flags().StringVar(&showFormat, "format", "text", "output format: "+strings.Join(report.PolicyFormats(), ", "))
	cmd.AddCommand(show)
	return cmd
}

// writeSchedulesChart draws the policies' schedules to path (.png or .svg).
func writeSchedulesChart(path string, all []policies.Policy) error {
	format, err := report.FormatForPath(path)
	if err != nil || !report.IsChart(format) {
		return badInput(fmt.Errorf("--chart: %q must end in .png or .svg", path))
	}
	if err := outfile.CheckWritable(path); err != nil {
		return badInput(fmt.Errorf("--chart: %w", err))
	}
	rows := report.PolicySchedules(all)
	if err := outfile.Write(path, func(w io.Writer) error { return report.WriteSchedulesChart(w, format, rows, report.ChartOptions{}) }); err != nil {
		return writeFailed(fmt.Errorf("--chart: %w", err))
	}
	return nil
}
