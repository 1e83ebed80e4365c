package policies

import (
	"errors"
	"testing"
)

// TestURLOverrideProblems: the first policy that cannot take the URL's
// overrides is named, with one problem a bad key; a policy that reads no
// overrides takes any.
func TestURLOverrideProblems(t *testing.T) {
	stripe, twilio := mustLookup(t, "stripe"), mustLookup(t, "twilio-docs")
	name, problems := URLOverrideProblems("http://127.0.0.1/x#rc=9&ct=50", []Policy{stripe, twilio})
	if name != "twilio-docs" || len(problems) != 2 {
		t.Fatalf("got %q, %v; want twilio-docs with a problem for rc and one for ct", name, problems)
	}
	for _, p := range problems {
		if !errors.Is(p, ErrBadOverride) {
			t.Errorf("%v is not ErrBadOverride", p)
		}
	}
	if name, problems := URLOverrideProblems("http://127.0.0.1/x#rc=2", []Policy{stripe, twilio}); name != "" || problems != nil {
		t.Errorf("good overrides: %q, %v", name, problems)
	}
}
