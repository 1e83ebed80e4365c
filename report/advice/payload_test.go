package advice_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/retrysim/retrysim/policies/payload"
	"github.com/retrysim/retrysim/report/advice"
)

func contains(s, sub string) bool { return strings.Contains(s, sub) }

// TestPayloadChoiceSaysTheFlag: a --payload or --set problem names its
// flag, and for a provider outside the run or a value that names none,
// says what to type instead.
func TestPayloadChoiceSaysTheFlag(t *testing.T) {
	boom := errors.New("no such file")
	for _, tc := range []struct {
		err  error
		want string
	}{
		{&payload.ChoiceError{Given: payload.GivenSource, Problem: payload.NotInRun, Value: "stripe=x.json", Provider: "stripe", Policies: []string{"github"}},
			"--payload stripe=x.json: stripe is not among the providers this run replays (github): add --provider stripe"},
		{&payload.ChoiceError{Given: payload.GivenOverride, Problem: payload.NotInRun, Value: "stripe:foo=1", Provider: "stripe", Policies: []string{"github"}},
			"--set stripe:foo=1: stripe is not among the providers this run replays (github)"},
		{&payload.ChoiceError{Given: payload.GivenSource, Problem: payload.Whose, Value: "x.json", Provider: "stripe", Policies: []string{"stripe", "github"}},
			"--payload x.json: --provider names 2 policies (stripe, github): say whose payload it is, e.g. --payload stripe=x.json"},
		{&payload.ChoiceError{Given: payload.GivenOverride, Problem: payload.Whose, Value: "foo=1", Provider: "stripe", Policies: []string{"stripe", "github"}},
			"--set foo=1: --provider names 2 policies (stripe, github): say whose field it is, e.g. --set stripe:foo=1"},
		{&payload.ChoiceError{Given: payload.GivenSource, Problem: payload.NotLoaded, Policy: "stripe", Err: boom},
			"--payload for stripe: no such file"},
		{&payload.ChoiceError{Given: payload.GivenOverride, Problem: payload.Unreadable, Index: 2, Err: boom},
			"--set #2: no such file"},
		{boom, "no such file"},
	} {
		got := advice.PayloadChoice(tc.err)
		if got.Error() != tc.want {
			t.Errorf("got  %q\nwant %q", got, tc.want)
		}
		if !errors.Is(got, boom) && contains(tc.want, "no such file") {
			t.Errorf("%q does not wrap the cause", got)
		}
	}
}

// TestDistinctSaysEachProblemOnce: the same refusal for several policies
// of one provider is said once, and all problems come back as one error.
func TestDistinctSaysEachProblemOnce(t *testing.T) {
	if advice.Distinct(nil) != nil {
		t.Error("no errors should stay none")
	}
	a, b := errors.New("--header: Stripe-Signature is stripe's"), errors.New("--header #2: bad header")
	got := advice.Distinct([]error{a, b, errors.New(a.Error())})
	if len(got) != 1 || got[0].Error() != a.Error()+"\n"+b.Error() {
		t.Fatalf("got %q", messages(got))
	}
	if !errors.Is(got[0], a) || !errors.Is(got[0], b) {
		t.Error("the joined error lost its causes")
	}
}
