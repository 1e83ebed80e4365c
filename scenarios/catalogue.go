package scenarios

import (
	"embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"slices"
	"strings"
	"sync"
)

//go:embed catalogue/*.yaml
var catalogueFS embed.FS

// ErrUnknown is returned, wrapped, by Lookup for a name that is neither a
// built-in scenario nor a readable file.
var ErrUnknown = errors.New("unknown scenario")

var builtin = sync.OnceValue(func() map[string]Scenario {
	out := map[string]Scenario{}
	files, err := fs.Glob(catalogueFS, "catalogue/*.yaml")
	if err != nil {
		panic(err)
	}
	for _, f := range files {
		data, _ := catalogueFS.ReadFile(f)
		s, err := Decode(path.Base(f), data)
		if err != nil {
			panic(fmt.Sprintf("built-in scenario catalogue: %v", err))
		}
		out[s.Name] = s
	}
	return out
})

// The built-in scenarios other packages name.
const (
	// Default is the scenario a command runs when none is named: a
	// congested path whose lost answers bring duplicates to a handler.
	Default = "flaky-network"
	// Forged sends, beside normal deliveries, the requests a handler must
	// reject.
	Forged = "forged"
)

// Builtin returns the names of the built-in scenarios, sorted.
func Builtin() []string {
	out := make([]string, 0, len(builtin()))
	for n := range builtin() {
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}

// Source returns the YAML of a built-in scenario, to copy and edit.
func Source(name string) ([]byte, error) {
	if _, ok := builtin()[name]; !ok {
		return nil, fmt.Errorf("%w %q (valid: %s)", ErrUnknown, name, strings.Join(Builtin(), ", "))
	}
	return catalogueFS.ReadFile("catalogue/" + name + ".yaml")
}

// MaxFile bounds a scenario file: a scenario is a few lines, so a larger
// file (or /dev/zero) is not one, and is not read further.
const MaxFile = 1 << 20

// readFile reads a scenario file, at most MaxFile bytes of it.
func readFile(name string) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxFile+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxFile {
		return nil, fmt.Errorf("%s is larger than %d MiB: not a scenario", name, MaxFile>>20)
	}
	return data, nil
}

// IsFileName reports whether a scenario name names a file: it ends in
// .yaml or .yml, or contains a slash.
func IsFileName(name string) bool {
	return strings.HasSuffix(name, ".yaml") || strings.HasSuffix(name, ".yml") || strings.ContainsRune(name, '/')
}

// Lookup returns the built-in scenario called name or, when name looks like
// a file (it ends in .yaml or .yml, or contains a slash), the scenario read
// from that file.
func Lookup(name string) (Scenario, error) {
	if s, ok := builtin()[name]; ok {
		return s, nil
	}
	if IsFileName(name) {
		data, err := readFile(name)
		if err != nil {
			return Scenario{}, fmt.Errorf("%w: %w", ErrUnknown, err)
		}
		return Decode(name, data)
	}
	return Scenario{}, fmt.Errorf("%w %q (valid: %s, or a .yaml file)", ErrUnknown, name, strings.Join(Builtin(), ", "))
}
