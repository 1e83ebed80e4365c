package main

import (
	"fmt"
	"slices"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/retrysim/retrysim/report"
	"github.com/retrysim/retrysim/scenarios"
)

func newScenariosCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "scenarios",
		Short: "List the fault scenarios",
		Long: `Scenarios lists the built-in fault scenarios with the real incident each one models, and
those defined under scenarios: in the config file (retrysim.yaml, or --config FILE).
'scenarios show NAME' prints a scenario's YAML, to copy into a file of your own and pass
to 'run --scenario FILE'. The fault types a scenario can use are listed at the end.

Examples:
  retrysim scenarios
  retrysim scenarios show flaky-network > my-network.yaml
  retrysim run --provider stripe --scenario ./my-network.yaml`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			st, err := loadConfig(cmd)
			if err != nil {
				return err
			}
			user := st.scenarios
			tw := tabwriter.NewWriter(cmd.OutOrStdout(), 0, 0, 2, ' ', 0)
			fmt.Fprintln(tw, "NAME\tFROM\tDESCRIPTION")
			for _, n := range scenarios.Builtin() {
				if _, shadowed := user[n]; shadowed {
					continue
				}
				s, _ := scenarios.Lookup(n)
				fmt.Fprintf(tw, "%s\tbuilt-in\t%s\n", s.Name, s.Description)
			}
			names := make([]string, 0, len(user))
			for n := range user {
				names = append(names, n)
			}
			slices.Sort(names)
			for _, n := range names {
				// A config file's text reaches the terminal escaped.
				fmt.Fprintf(tw, "%s\t%s\t%s\n", report.EscapeText(n), report.EscapeText(st.path), report.EscapeText(user[n].Description))
			}
			if err := tw.Flush(); err != nil {
				return err
			}
			_, err = fmt.Fprintf(cmd.OutOrStdout(), "\nfault types: %s\n'retrysim scenarios show NAME' prints a scenario's YAML.\n", joinTypes())
			return err
		},
	}
	cmd.AddCommand(&cobra.Command{
		Use:   "show NAME",
		Short: "Print a scenario's YAML",
		Long: `Show prints a scenario (built-in, or from the config file) as YAML, ready to copy into a
file and edit.

Examples:
  retrysim scenarios show outage
  retrysim scenarios show crash-restart > restarts.yaml`,
		Args: oneArg("the name of a scenario, e.g. outage ('retrysim scenarios' lists them)"),
		RunE: func(cmd *cobra.Command, args []string) error {
			st, err := loadConfig(cmd)
			if err != nil {
				return err
			}
			if s, ok := st.scenarios[args[0]]; ok {
				_, err := cmd.OutOrStdout().Write(s.YAML())
				return err
			}
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

func joinTypes() string {
	s := ""
	for i, t := range scenarios.Types() {
		if i > 0 {
			s += ", "
		}
		s += t
	}
	return s
}
