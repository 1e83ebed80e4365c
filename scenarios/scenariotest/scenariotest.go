// Package scenariotest gives tests the scenarios they run: a built-in one by
// name, or one written in a test as YAML. Each fails the test rather than
// return an error, so a test states the scenario in one line.
package scenariotest

import (
	"testing"

	"github.com/retrysim/retrysim/scenarios"
)

// Lookup returns the built-in scenario called name, failing tb if there is
// none.
func Lookup(tb testing.TB, name string) scenarios.Scenario {
	tb.Helper()
	s, err := scenarios.Lookup(name)
	if err != nil {
		tb.Fatalf("scenariotest: %v", err)
	}
	return s
}

// Faults decodes a scenario called "test" from YAML that gives its faults
// (and any other key but its name), failing tb if it does not decode:
//
//	scenariotest.Faults(t, "faults: [{type: duplicate, attempts: [1]}]")
func Faults(tb testing.TB, yaml string) scenarios.Scenario {
	tb.Helper()
	s, err := scenarios.Decode("test.yaml", []byte("name: test\n"+yaml))
	if err != nil {
		tb.Fatalf("scenariotest: %v", err)
	}
	return s
}
