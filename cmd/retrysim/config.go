package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/spf13/viper"

	"github.com/retrysim/retrysim/policies"
	"github.com/retrysim/retrysim/policies/configfile"
	"github.com/retrysim/retrysim/report/advice"
	"github.com/retrysim/retrysim/scenarios"
)

// settings is what one command invocation takes from the config file and
// the environment besides its flags' values: the policy catalogue, the
// file's secrets and scenarios, and where each flag's value came from.
// execute makes a fresh one for every invocation and loadConfig fills it;
// nothing of it outlives the command, so two commands run in one process
// never see each other's config.
type settings struct {
	// v holds the file's and the environment's values, by config key.
	v *viper.Viper
	// path is the config file read, "" when none.
	path string
	// catalogue is the policy catalogue: the built-in one, extended by
	// the file's "policies:" section.
	catalogue *policies.Catalogue
	// secrets are the file's "secrets:", by provider.
	secrets map[string]string
	// scenarios are the file's "scenarios:", by name.
	scenarios map[string]scenarios.Scenario
	// sources names, for each flag whose value came from the environment
	// or the config file rather than the command line, where it came from
	// (RETRYSIM_EVENTS, retrysim.yaml:2: events), so that an error about
	// the value points there.
	sources map[string]string
}

// newSettings is the settings of a command with no config file and no
// environment: the built-in catalogue, no secrets, no scenarios.
func newSettings() *settings {
	return &settings{v: viper.New(), catalogue: policies.Default(), secrets: map[string]string{}, scenarios: map[string]scenarios.Scenario{}, sources: map[string]string{}}
}

type settingsKey struct{}

// withSettings carries one invocation's settings to its command.
func withSettings(ctx context.Context, st *settings) context.Context {
	return context.WithValue(ctx, settingsKey{}, st)
}

// settingsOf returns the settings a command's context carries, or nil.
func settingsOf(ctx context.Context) *settings {
	if ctx == nil {
		return nil
	}
	st, _ := ctx.Value(settingsKey{}).(*settings)
	return st
}

// isSet reports whether the config file or the environment sets key.
func (st *settings) isSet(key string) bool { return st.v.IsSet(key) }

// policy finds a policy in the catalogue.
func (st *settings) policy(name string) (policies.Policy, error) { return st.catalogue.Lookup(name) }

// allPolicies is every policy of the catalogue, in its order.
func (st *settings) allPolicies() []policies.Policy { return st.catalogue.All() }

// loadConfig reads the config file (--config, or retrysim.yaml when present)
// and RETRYSIM_* environment variables, and sets every flag of cmd that was
// not given on the command line from them. Flags beat environment beats file.
// An unknown key in the file is an error naming the file and the key.
//
// It fills, and returns, the invocation's settings (a fresh value when the
// command's context carries none).
func loadConfig(cmd *cobra.Command) (*settings, error) {
	st := settingsOf(cmd.Context())
	if st == nil {
		st = &settings{}
	}
	*st = *newSettings()
	v := st.v
	v.SetEnvPrefix("RETRYSIM")
	v.SetEnvKeyReplacer(strings.NewReplacer("-", "_"))
	v.AutomaticEnv()
	path, _ := cmd.Flags().GetString("config")
	explicit := path != ""
	if !explicit {
		if _, err := os.Stat(configfile.Name); err == nil {
			path = configfile.Name
		}
	}
	st.path = path
	var errs []error
	var lines map[string]int
	if path != "" {
		// The file is read once, bounded: viper takes its settings,
		// configfile its data sections.
		v.SetConfigType("yaml")
		data, err := configfile.ReadFile(path)
		if err == nil {
			err = v.ReadConfig(bytes.NewReader(data))
		}
		if err != nil {
			return nil, badInput(fmt.Errorf("config %s: %w", path, err))
		}
		file, err := configfile.Read(path, data, st.catalogue, allFlagNames(cmd.Root()))
		st.catalogue, st.secrets, st.scenarios, lines = file.Catalogue, file.Secrets, file.Scenarios, file.Lines
		if err != nil {
			errs = append(errs, err)
		}
	}
	// The configured secrets are redacted from here on: an error in the
	// file's other keys may quote a value.
	for _, prov := range policies.WireNames() {
		if v, ok := st.secret(prov); ok {
			secretsOf(cmd.Context()).Add(v)
		}
	}
	cmd.Flags().VisitAll(func(f *pflag.Flag) {
		key := configfile.Key(cmd.Name(), f.Name)
		if f.Changed || f.Name == "config" || f.Name == "help" || !v.IsSet(key) {
			return
		}
		raw := v.Get(key)
		source := configfile.Source(key, path, lines, os.Getenv)
		trust := configfile.TrustOf(cmd.Name(), f.Name, explicit, os.Getenv)
		note, err := advice.Untrusted(trust, f.Name, key, source)
		if err != nil {
			errs = append(errs, err)
			return
		}
		if note != "" {
			fmt.Fprintf(cmd.ErrOrStderr(), "retrysim: %s\n", note)
			return
		}
		st.sources[f.Name] = source
		if err := setFromConfig(f, raw); err != nil {
			val := fmt.Sprintf("%q", configfile.Text(raw))
			if f.Name == "secret" {
				val = "(value not shown)"
			}
			errs = append(errs, fmt.Errorf("%s: %s: %w", source, val, err))
		}
	})
	if len(errs) > 0 {
		return nil, badInput(errors.Join(errs...))
	}
	if f := cmd.Flags().Lookup("allow-remote"); f != nil && !f.Changed && v.IsSet("allow-remote") && f.Value.String() == "true" {
		fmt.Fprintf(cmd.ErrOrStderr(), "retrysim: the loopback guard is off (allow-remote from %s): targets on other machines are allowed\n", configfile.Source("allow-remote", path, lines, os.Getenv))
	}
	return st, nil
}

// setFromConfig sets flag f from a config file or environment value, the
// way the command line would: a string is one flag value, so a slice flag
// splits "stripe,github" on commas as --provider stripe,github does; a
// YAML list is the flag given once per element (a list given to a flag
// that takes one value is its elements joined by commas, as --ttl takes
// them).
func setFromConfig(f *pflag.Flag, raw any) error {
	vals := []string{configfile.Text(raw)}
	if sv, ok := f.Value.(pflag.SliceValue); ok {
		// Setting a slice flag appends from its second value on: start
		// from empty so the value replaces the default.
		if err := sv.Replace(nil); err != nil {
			return err
		}
		if list, ok := raw.([]any); ok {
			vals = vals[:0]
			for _, e := range list {
				vals = append(vals, configfile.Text(e))
			}
		}
	}
	for _, s := range vals {
		if err := f.Value.Set(s); err != nil {
			return err
		}
	}
	return nil
}

// secret returns provider's secret from the environment or, after it, the
// config file; --secret beats both and is the caller's to check.
func (st *settings) secret(provider string) (string, bool) {
	v, _, ok := configfile.Secret(provider, st.secrets, st.path, os.Getenv)
	return v, ok
}

// allFlagNames is every config key of every command under root (a flag's
// name, or its configfile.Key), but config and help.
func allFlagNames(root *cobra.Command) map[string]bool {
	names := map[string]bool{}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		c.Flags().VisitAll(func(f *pflag.Flag) {
			if f.Name != "config" && f.Name != "help" {
				names[configfile.Key(c.Name(), f.Name)] = true
			}
		})
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
	return names
}

// scenarioFlag resolves --scenario (configfile.Scenario), and names the
// file it was read from when that is a YAML file of the user's.
func (st *settings) scenarioFlag(name string) (scenarios.Scenario, string, error) {
	sc, file, err := configfile.Scenario(name, st.scenarios, st.path)
	if err != nil {
		return sc, file, fmt.Errorf("--scenario: %w", err)
	}
	return sc, file, nil
}
