// Package policytest gives tests the retry policies they run, by name, as
// scenariotest gives them scenarios: it fails the test rather than return
// an error, so a test states its policy in one line.
package policytest

import (
	"testing"

	"github.com/retrysim/retrysim/policies"
)

// Lookup returns the built-in policy called name, failing tb if there is
// none.
func Lookup(tb testing.TB, name string) policies.Policy {
	tb.Helper()
	p, err := policies.Lookup(name)
	if err != nil {
		tb.Fatalf("policytest: %v", err)
	}
	return p
}
