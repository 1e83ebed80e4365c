package advice_test

import (
	"testing"

	"github.com/retrysim/retrysim/policies"
	"github.com/retrysim/retrysim/policies/policytest"
)

// messages are errs' messages, in order.
func messages(errs []error) []string {
	out := make([]string, len(errs))
	for i, err := range errs {
		out[i] = err.Error()
	}
	return out
}

// sameLines fails t unless got says exactly want, line by line.
func sameLines(t *testing.T, got []error, want ...string) {
	t.Helper()
	msgs := messages(got)
	if len(msgs) != len(want) {
		t.Fatalf("got %d errors, want %d:\n%q\nwant\n%q", len(msgs), len(want), msgs, want)
	}
	for i := range want {
		if msgs[i] != want[i] {
			t.Errorf("error %d:\n got %q\nwant %q", i, msgs[i], want[i])
		}
	}
}

func mustPolicies(t *testing.T, names ...string) []policies.Policy {
	t.Helper()
	var out []policies.Policy
	for _, n := range names {
		out = append(out, policytest.Lookup(t, n))
	}
	return out
}
