package main

import (
	"fmt"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/retrysim/retrysim/scenarios"
)

func newScenariosCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "scenarios",
		Short: "List the built-in fault scenarios",
		Long: `Scenarios lists the built-in fault scenarios with the real incident each one models.
'scenarios show NAME' prints a scenario's YAML, to copy into a file of your own and pass
to 'run --scenario FILE'.

Examples:
  retrysim scenarios
  retrysim scenarios show flaky-network > my-network.yaml`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			tw := tabwriter.NewWriter(cmd.OutOrStdout(), 0, 0, 2, ' ', 0)
			fmt.Fprintln(tw, "NAME\tDESCRIPTION")
			for _, n := range scenarios.Builtin() {
				s, _ := scenarios.Lookup(n)
				fmt.Fprintf(tw, "%s\t%s\n", s.Name, s.Description)
			}
			return tw.Flush()
		},
	}
	cmd.AddCommand(&cobra.Command{
		Use:   "show NAME",
		Short: "Print a built-in scenario's YAML",
		Long: `Show prints a built-in scenario as YAML.

Examples:
  retrysim scenarios show outage`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			src, err := scenarios.Source(args[0])
			if err != nil {
				return badInput(err)
			}
			_, err = cmd.OutOrStdout().Write(src)
			return err
		},
	})
	return cmd
}
