package scenarios

import (
	"maps"
	"slices"
)

// Listed is a scenario as a list of scenarios shows it.
type Listed struct {
	Name, Description string
	// Own says it is one of the caller's own scenarios (a config file's),
	// not a built-in one.
	Own bool
}

// List lists the built-in scenarios but those own shadows, by name, then
// own's scenarios, by name.
func List(own map[string]Scenario) []Listed {
	var out []Listed
	for _, n := range Builtin() {
		if _, shadowed := own[n]; shadowed {
			continue
		}
		s, _ := Lookup(n)
		out = append(out, Listed{Name: s.Name, Description: s.Description})
	}
	for _, n := range slices.Sorted(maps.Keys(own)) {
		out = append(out, Listed{Name: n, Description: own[n].Description, Own: true})
	}
	return out
}

// SourceIn returns the YAML of scenario name, one of own (a config file's,
// which wins over a built-in of the same name) or a built-in one, to copy
// and edit.
func SourceIn(name string, own map[string]Scenario) ([]byte, error) {
	if s, ok := own[name]; ok {
		return s.YAML(), nil
	}
	return Source(name)
}
