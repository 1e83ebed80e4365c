package scenarios

import (
	"fmt"
	"strings"
)

// partShift places a part's number above its faults' own keys, so the
// faults of two parts never share one.
const partShift = 40

// Compose returns the scenario whose faults are the union of the parts'
// faults, in order. Its name joins the parts' names with "," (what Lookup
// takes back), and Parts lists them. Each fault keeps the random choices it
// makes in its own scenario where it can: the first part's faults decide
// exactly as they do alone, and a later part's are keyed by the part's
// place, so the whole depends only on the seed and the order of the parts.
func Compose(parts ...Scenario) Scenario {
	if len(parts) == 1 {
		return parts[0]
	}
	var s Scenario
	var names, descs []string
	for p, part := range parts {
		names = append(names, part.Name)
		if part.Description != "" {
			descs = append(descs, part.Name+": "+part.Description)
		}
		for j, f := range part.Faults {
			k := f.rollKey(j)
			if p > 0 {
				k += uint64(p) << partShift
			}
			f.key, f.keyed = k, true
			s.Faults = append(s.Faults, f)
		}
	}
	s.Name = strings.Join(names, ",")
	s.Description = strings.Join(descs, " · ")
	s.Parts = names
	return s
}

// LookupIn resolves a scenario name as a command does: "a,b" composes the
// scenarios a and b (see Compose); each name is one of own (a config
// file's scenarios, which win over a built-in of the same name), a built-in
// scenario, or a YAML file (see Lookup).
func LookupIn(name string, own map[string]Scenario) (Scenario, error) {
	names := strings.Split(name, ",")
	if len(names) == 1 {
		if s, ok := own[name]; ok {
			return s, nil
		}
		return Lookup(name)
	}
	parts := make([]Scenario, 0, len(names))
	seen := map[string]bool{}
	for _, n := range names {
		n = strings.TrimSpace(n)
		switch {
		case n == "":
			return Scenario{}, fmt.Errorf("%w: %q names an empty scenario between commas", ErrUnknown, name)
		case seen[n]:
			return Scenario{}, fmt.Errorf("%w: %q names %s twice", ErrUnknown, name, n)
		}
		seen[n] = true
		s, err := LookupIn(n, own)
		if err != nil {
			return Scenario{}, err
		}
		parts = append(parts, s)
	}
	return Compose(parts...), nil
}
