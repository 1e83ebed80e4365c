package main

import (
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
Scenarios compose: 'run --scenario flaky-network,forged' runs the union of their faults, and a
scenario file may list built-in scenarios to add under include: (include: [flaky-network, forged]).

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
			return report.WriteScenarios(cmd.OutOrStdout(), scenarios.List(st.scenarios), st.path)
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
			src, err := scenarios.SourceIn(args[0], st.scenarios)
			if err != nil {
				return badInput(err)
			}
			_, err = cmd.OutOrStdout().Write(src)
			return err
		},
	})
	return cmd
}
