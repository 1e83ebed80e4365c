package policies

import (
	"errors"
	"fmt"
	"strings"
)

// ParseNames reads a list of policy names as a user gives them (trimmed,
// any case, empty ones skipped), or the one word "all" for the named
// defaults. An empty list or a name given twice is an error: two runs of
// one policy would be reported as one.
func ParseNames(list []string) ([]string, error) {
	if len(list) == 1 && strings.EqualFold(strings.TrimSpace(list[0]), "all") {
		return NamedDefaults(), nil
	}
	var names []string
	seen := map[string]bool{}
	for _, n := range list {
		n = strings.ToLower(strings.TrimSpace(n))
		if n == "" {
			continue
		}
		if seen[n] {
			return nil, fmt.Errorf("%q is named twice", n)
		}
		seen[n] = true
		names = append(names, n)
	}
	if len(names) == 0 {
		return nil, errors.New("no provider named (give one or more, e.g. stripe,shopify, or 'all')")
	}
	return names, nil
}

// Names returns the names of pols, in their order.
func Names(pols []Policy) []string {
	names := make([]string, len(pols))
	for i, p := range pols {
		names[i] = p.Name
	}
	return names
}
