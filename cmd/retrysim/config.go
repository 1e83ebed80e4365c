package main

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/spf13/viper"

	"github.com/retrysim/retrysim/scenarios"
)

// configFile is the file looked for in the working directory.
const configFile = "retrysim.yaml"

// configSections are the config keys that are not flags.
var configSections = []string{"secrets", "scenarios"}

// loadConfig reads the config file (--config, or retrysim.yaml when present)
// and RETRYSIM_* environment variables, and sets every flag of cmd that was
// not given on the command line from them. Flags beat environment beats file.
// An unknown key in the file is an error naming the file and the key.
func loadConfig(cmd *cobra.Command) (*viper.Viper, error) {
	v := viper.New()
	v.SetEnvPrefix("RETRYSIM")
	v.SetEnvKeyReplacer(strings.NewReplacer("-", "_"))
	v.AutomaticEnv()
	path, _ := cmd.Flags().GetString("config")
	explicit := path != ""
	if !explicit {
		if _, err := os.Stat(configFile); err == nil {
			path = configFile
		}
	}
	if path != "" {
		v.SetConfigFile(path)
		v.SetConfigType("yaml")
		if err := v.ReadInConfig(); err != nil {
			return nil, badInput(fmt.Errorf("config %s: %w", path, err))
		}
		var unknown []string
		for _, k := range v.AllKeys() {
			top, _, _ := strings.Cut(k, ".")
			if cmd.Flags().Lookup(top) == nil && !slices.Contains(configSections, top) {
				unknown = append(unknown, top)
			}
		}
		if len(unknown) > 0 {
			slices.Sort(unknown)
			unknown = slices.Compact(unknown)
			var valid []string
			cmd.Flags().VisitAll(func(f *pflag.Flag) {
				if f.Name != "config" && f.Name != "help" {
					valid = append(valid, f.Name)
				}
			})
			return nil, badInput(fmt.Errorf("config %s: unknown key(s) %s for '%s' (valid: %s)",
				path, strings.Join(unknown, ", "), cmd.CommandPath(), strings.Join(append(valid, configSections...), ", ")))
		}
	}
	var errs []error
	cmd.Flags().VisitAll(func(f *pflag.Flag) {
		if f.Changed || f.Name == "config" || f.Name == "help" || !v.IsSet(f.Name) {
			return
		}
		var vals []string
		if sv, ok := f.Value.(pflag.SliceValue); ok {
			vals = v.GetStringSlice(f.Name)
			if err := sv.Replace(vals); err != nil {
				errs = append(errs, fmt.Errorf("%s: %w", f.Name, err))
			}
			return
		}
		if err := f.Value.Set(v.GetString(f.Name)); err != nil {
			errs = append(errs, fmt.Errorf("config or environment value for %s %q: %w", f.Name, v.GetString(f.Name), err))
		}
	})
	if len(errs) > 0 {
		return nil, badInput(errors.Join(errs...))
	}
	return v, nil
}

// userScenarios decodes the scenarios: section of the config file in use,
// strictly, by name. viper loses line numbers, so the file is read again.
func userScenarios(v *viper.Viper) (map[string]scenarios.Scenario, error) {
	path := ""
	if v != nil {
		path = v.ConfigFileUsed()
	}
	if path == "" {
		return nil, nil
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, badInput(fmt.Errorf("config %s: %w", path, err))
	}
	m, err := scenarios.DecodeMap(path, data, "scenarios")
	if err != nil {
		return nil, badInput(fmt.Errorf("config: %w", err))
	}
	return m, nil
}

// lookupScenario resolves a --scenario value: a scenario from the config
// file (it wins over a built-in of the same name), a built-in, or a YAML
// file.
func lookupScenario(user map[string]scenarios.Scenario, name string) (scenarios.Scenario, error) {
	if s, ok := user[name]; ok {
		return s, nil
	}
	s, err := scenarios.Lookup(name)
	if err != nil && len(user) > 0 && errors.Is(err, scenarios.ErrUnknown) {
		names := make([]string, 0, len(user))
		for n := range user {
			names = append(names, n)
		}
		slices.Sort(names)
		return s, fmt.Errorf("%w (or from the config file: %s)", err, strings.Join(names, ", "))
	}
	return s, err
}
