package policies

import (
	"bytes"
	"embed"
	"fmt"
	"io/fs"
	"path"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"
)

// NamedDefaults are the product's named default policies, one per provider
// it was specified with (see docs/PROVIDERS.md): what a command runs when
// it is told "all" or nothing, in this order.
func NamedDefaults() []string {
	return []string{"stripe", "github", "shopify", "twilio", "slack", "discord"}
}

//go:embed catalogue/*.yaml
var catalogueFS embed.FS

var builtin = sync.OnceValue(func() map[string]Policy {
	out := map[string]Policy{}
	files, err := fs.Glob(catalogueFS, "catalogue/*.yaml")
	if err != nil {
		panic(err)
	}
	for _, f := range files {
		data, err := catalogueFS.ReadFile(f)
		if err != nil {
			panic(err)
		}
		p, err := Decode(path.Base(f), data)
		if err != nil {
			panic(fmt.Sprintf("built-in policy catalogue: %v", err))
		}
		if _, dup := out[p.Name]; dup {
			panic(fmt.Sprintf("built-in policy catalogue: %s: policy %q defined twice", f, p.Name))
		}
		out[p.Name] = p
	}
	return out
})

// Decode reads one policy from YAML, strictly: an unknown key is an error.
// file names the source in errors.
func Decode(file string, data []byte) (Policy, error) {
	var p Policy
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&p); err != nil {
		return Policy{}, fmt.Errorf("%s: %w", file, err)
	}
	if err := p.Init(); err != nil {
		return Policy{}, fmt.Errorf("%s: %w", file, err)
	}
	return p, nil
}

// Builtin returns the names of the built-in policies, sorted.
func Builtin() []string { return Default().Names() }

// Lookup returns the built-in policy called name.
func Lookup(name string) (Policy, error) { return Default().Lookup(name) }

func joinNames(names []string) string { return strings.Join(names, ", ") }
