package payload

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/retrysim/retrysim/policies"
	"github.com/retrysim/retrysim/policies/policytest"
)

func TestForRun(t *testing.T) {
	stripe, github := policytest.Lookup(t, "stripe"), policytest.Lookup(t, "github")
	file := filepath.Join(t.TempDir(), "paid.json")
	if err := os.WriteFile(file, []byte(`{"id":"evt_1","object":"event","type":"invoice.paid","created":1,"data":{"object":{"id":"in_1","customer":"cus_A"}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Run("a file for the only policy, an override for the other", func(t *testing.T) {
		got, errs := ForRun([]policies.Policy{stripe, github}, nil, []string{"stripe=" + file}, []string{"stripe:data.object.customer=cus_B", "github:ref=refs/heads/x"})
		if len(errs) > 0 {
			t.Fatal(errs)
		}
		if _, ok := got["stripe"].(*Set); !ok {
			t.Errorf("stripe's bodies come from %T, want its payload file", got["stripe"])
		}
		if _, ok := got["github"].(*Overridden); !ok {
			t.Errorf("github's bodies come from %T, want its own overridden", got["github"])
		}
		body, _ := got["stripe"].Body(event(stripe.Wire(), 0, 1), 1)
		if !strings.Contains(string(body), `"customer":"cus_B"`) {
			t.Errorf("the override is not in the body: %s", body)
		}
	})
	t.Run("nothing given", func(t *testing.T) {
		got, errs := ForRun([]policies.Policy{stripe}, nil, nil, nil)
		if len(errs) > 0 || len(got) != 0 {
			t.Errorf("got %v, %v; want the wire's own bodies", got, errs)
		}
	})
	for _, tc := range []struct {
		name              string
		pols              []policies.Policy
		sources, ovs      []string
		given             Given
		problem           Problem
		index             int
		provider, message string
	}{
		{"a file, and two policies", []policies.Policy{stripe, github}, []string{file}, nil, GivenSource, Whose, 1, "stripe", "say whose it is"},
		{"a file for a provider not run", []policies.Policy{stripe}, []string{"github=" + file}, nil, GivenSource, NotInRun, 1, "github", "github is not among the providers this run replays (stripe)"},
		{"an override, and two policies", []policies.Policy{stripe, github}, nil, []string{"a=1"}, GivenOverride, Whose, 0, "stripe", "the run replays 2 policies"},
		{"an override that cannot be read", []policies.Policy{stripe}, nil, []string{"a=1", "b"}, GivenOverride, Unreadable, 2, "", "#2: bad override"},
		{"an override of no field", []policies.Policy{stripe}, nil, []string{"no.such=1"}, GivenOverride, NotLoaded, 0, "", "for stripe:"},
		{"a missing file", []policies.Policy{stripe}, []string{file + ".gone"}, nil, GivenSource, NotLoaded, 0, "", "for stripe:"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, errs := ForRun(tc.pols, nil, tc.sources, tc.ovs)
			var ce *ChoiceError
			if len(errs) != 1 || !errors.As(errs[0], &ce) {
				t.Fatalf("errors = %v, want one *ChoiceError", errs)
			}
			if ce.Given != tc.given || ce.Problem != tc.problem || ce.Index != tc.index || ce.Provider != tc.provider || !strings.Contains(ce.Error(), tc.message) {
				t.Errorf("got %+v (%q), want given %d, problem %d, index %d, provider %q, %q", ce, ce, tc.given, tc.problem, tc.index, tc.provider, tc.message)
			}
		})
	}
}
