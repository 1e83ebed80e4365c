package main

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// gateNames are the --fail-on gates, in the order the design lists them.
var gateNames = []string{"duplicate-effects", "lost-events", "slow-responses", "redirects", "ttl-too-short", "forged-accepted"}

// errBadGate is returned, wrapped, for a --fail-on list that does not parse.
var errBadGate = errors.New("bad --fail-on list")

// parseFailOn reads a comma-separated --fail-on list: gate names in any
// case, spaces around them ignored, each at most once. The result is in the
// order given. An error quotes the bad entry and lists the valid gates.
func parseFailOn(s string) ([]string, error) {
	var out []string
	for i, part := range strings.Split(s, ",") {
		name := strings.ToLower(strings.TrimSpace(part))
		switch {
		case name == "":
			if strings.TrimSpace(s) == "" {
				return nil, fmt.Errorf("%w: empty (valid gates: %s)", errBadGate, strings.Join(gateNames, ", "))
			}
			return nil, fmt.Errorf("%w: %q has an empty entry at position %d (valid gates: %s)", errBadGate, s, i+1, strings.Join(gateNames, ", "))
		case !slices.Contains(gateNames, name):
			return nil, fmt.Errorf("%w: %q is not a gate (valid: %s)", errBadGate, part, strings.Join(gateNames, ", "))
		case slices.Contains(out, name):
			return nil, fmt.Errorf("%w: %q is given twice", errBadGate, name)
		}
		out = append(out, name)
	}
	return out, nil
}
