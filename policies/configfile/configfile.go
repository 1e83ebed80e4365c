// Package configfile reads the sections of retrysim's config file
// (retrysim.yaml) that hold data rather than settings: "policies:"
// (custom policies, decoded strictly by the policies package), "secrets:"
// (provider: secret) and "scenarios:" (name: scenario, decoded strictly by
// the scenarios package). The file's other keys are settings the caller
// takes by its own means; Read only checks that each is one it knows.
// For those, the package names the file (Name, read by ReadFile up to
// MaxSize), the environment variable and config key of each setting
// (EnvName, SecretEnv, Key), where a value came from (Source), and which
// values a file found in the working directory is not trusted with
// (TrustOf).
package configfile

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/retrysim/retrysim/policies"
	"github.com/retrysim/retrysim/scenarios"
)

// Sections returns the keys of the data sections, in the order they are
// listed to the user.
func Sections() []string { return []string{"policies", "secrets", "scenarios"} }

// File is what a config file's data sections hold.
type File struct {
	// Catalogue is the catalogue given to Read, extended by the file's
	// "policies:".
	Catalogue *policies.Catalogue
	// Secrets are the file's "secrets:", by provider.
	Secrets map[string]string
	// Scenarios are the file's "scenarios:", by name.
	Scenarios map[string]scenarios.Scenario
	// Lines are the line of each top-level key, by lower-case name, so
	// that a setting's bad value can be pointed at.
	Lines map[string]int
}

// Read reads data, the config file at path: its data sections, on top of
// the catalogue base, and the line of every key. A top-level key is known
// when known holds it (lower-case) or it is one of Sections. Every
// problem is reported at once, naming the file, the line, the key and the
// value, except a secret's value, which is never repeated; what could be
// read is returned beside them.
func Read(path string, data []byte, base *policies.Catalogue, known map[string]bool) (File, error) {
	f := File{Catalogue: base, Secrets: map[string]string{}, Scenarios: map[string]scenarios.Scenario{}}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return f, fmt.Errorf("config %s: %w", path, err)
	}
	if len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return f, nil
	}
	top := doc.Content[0]
	f.Lines = map[string]int{}
	var errs []error
	for i := 0; i+1 < len(top.Content); i += 2 {
		key, val := top.Content[i], top.Content[i+1]
		name := strings.ToLower(key.Value)
		f.Lines[name] = key.Line
		if !known[name] && !slices.Contains(Sections(), name) {
			errs = append(errs, fmt.Errorf("%s:%d: unknown key %q (valid: the flags of any command, %s; or %s)",
				path, key.Line, key.Value, strings.Join(slices.Sorted(maps.Keys(known)), ", "), strings.Join(Sections(), ", ")))
			continue
		}
		switch key.Value {
		case "policies":
			cat, err := f.Catalogue.Extend(path, val)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			f.Catalogue = cat
		case "secrets":
			fileSecrets, secretErrs := policies.DecodeSecrets(path, val)
			maps.Copy(f.Secrets, fileSecrets)
			errs = append(errs, secretErrs...)
		case "scenarios":
			m, err := scenarios.DecodeMap(path, data, "scenarios")
			if err != nil {
				errs = append(errs, fmt.Errorf("config: %w", err))
				continue
			}
			f.Scenarios = m
		}
	}
	return f, errors.Join(errs...)
}
