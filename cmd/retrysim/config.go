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
)

// configFile is the file looked for in the working directory.
const configFile = "retrysim.yaml"

// configSections are the config keys that are not flags.
var configSections = []string{"secrets"}

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
