package policies

import (
	"errors"
	"strings"
	"testing"
)

func TestChooseEventTypes(t *testing.T) {
	stripe, stripeTest, github := mustLookup(t, "stripe"), mustLookup(t, "stripe-test"), mustLookup(t, "github")
	for _, tc := range []struct {
		name  string
		given []string
		pols  []Policy
		want  map[string]string
		err   string
	}{
		{"none", nil, []Policy{stripe}, map[string]string{}, ""},
		{"one plain type for one policy", []string{" invoice.paid "}, []Policy{stripe}, map[string]string{"stripe": "invoice.paid"}, ""},
		{"a wire's name covers its policies", []string{"stripe=invoice.paid"}, []Policy{stripe, stripeTest}, map[string]string{"stripe": "invoice.paid", "stripe-test": "invoice.paid"}, ""},
		{"a policy's own name wins", []string{"stripe-test=charge.refunded", "stripe=invoice.paid"}, []Policy{stripe, stripeTest}, map[string]string{"stripe": "invoice.paid", "stripe-test": "charge.refunded"}, ""},
		{"a pair per provider", []string{"STRIPE=invoice.paid", "github=push"}, []Policy{stripe, github}, map[string]string{"stripe": "invoice.paid", "github": "push"}, ""},
		{"no type", []string{"stripe="}, []Policy{stripe}, nil, `"stripe=": expected provider=type`},
		{"given twice", []string{"stripe=invoice.paid", "stripe=charge.refunded"}, []Policy{stripe}, nil, "stripe is given twice (invoice.paid and charge.refunded)"},
		{"plain beside pairs", []string{"push", "stripe=invoice.paid"}, []Policy{stripe}, nil, "push names no provider"},
		{"two plain types", []string{"push", "ping"}, []Policy{github}, nil, "push, ping: one type only"},
		{"a type the wire does not send", []string{"github=no.such.type"}, []Policy{github}, nil, "no.such.type"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, errs := ChooseEventTypes(tc.given, tc.pols)
			if tc.err != "" {
				if len(errs) == 0 || !strings.Contains(errors.Join(errs...).Error(), tc.err) {
					t.Fatalf("got %v, %v; want an error with %q", got, errs, tc.err)
				}
				return
			}
			if len(errs) > 0 || len(got) != len(tc.want) {
				t.Fatalf("got %v, %v; want %v", got, errs, tc.want)
			}
			for k, v := range tc.want {
				if got[k] != v {
					t.Errorf("%s = %q, want %q", k, got[k], v)
				}
			}
		})
	}
}

// TestChooseEventTypesFigures: the problems a command words itself carry
// their figures: the example gives the type to the policy that sends it.
func TestChooseEventTypesFigures(t *testing.T) {
	stripe, github := mustLookup(t, "stripe"), mustLookup(t, "github")
	_, errs := ChooseEventTypes([]string{"push"}, []Policy{stripe, github})
	var many *OneTypeForManyError
	if len(errs) != 1 || !errors.As(errs[0], &many) {
		t.Fatalf("errors = %v, want one *OneTypeForManyError", errs)
	}
	want := "stripe=" + stripe.Wire().DefaultEventType() + ",github=push"
	if many.Type != "push" || strings.Join(many.Policies, ",") != "stripe,github" || strings.Join(many.Pairs, ",") != want {
		t.Errorf("got %+v, want pairs %s", many, want)
	}
	_, errs = ChooseEventTypes([]string{"slack=event_callback"}, []Policy{stripe})
	var notRun *NotInRunError
	if len(errs) != 1 || !errors.As(errs[0], &notRun) || notRun.Provider != "slack" || notRun.Type != "event_callback" {
		t.Errorf("errors = %v, want one *NotInRunError for slack", errs)
	}
}
