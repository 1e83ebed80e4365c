package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/retrysim/retrysim/policies"
	"github.com/retrysim/retrysim/policies/policytest"
)

// TestPolicyShowPrintsItsFacts: `retrysim policies show` prints each fact
// the built-in policy states with its basis, source and date checked, and
// says which are secondhand, in text and markdown; its source and notes
// wrap onto lines of their own (no literal \n).
func TestPolicyShowPrintsItsFacts(t *testing.T) {
	p := policytest.Lookup(t, "stripe-disable")
	var text, md bytes.Buffer
	if err := WritePolicy(&text, &p, "text"); err != nil {
		t.Fatal(err)
	}
	if err := WritePolicy(&md, &p, "markdown"); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"\n  facts (D provider's docs, C its code, S secondhand, I inferred):\n",
		"\n    disable: 9 days after the first failure — DEV Community post quoting Stripe's email\n      (2026-05) (S, secondhand, checked 2026-12-01)\n",
	} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("the text does not say %q:\n%s", want, text.String())
		}
	}
	if strings.Contains(text.String(), `\n`) {
		t.Errorf("the text carries a literal \\n:\n%s", text.String())
	}
	want := "| disable | 9 days after the first failure | S | DEV Community post quoting Stripe's email (2026-05) | 2026-12-01 | yes |\n"
	if !strings.Contains(md.String(), want) {
		t.Errorf("the markdown has no row %q:\n%s", want, md.String())
	}
	var js bytes.Buffer
	if err := WritePolicy(&js, &p, "json"); err != nil {
		t.Fatal(err)
	}
	if want := `"fact": "disable",
      "value": "9 days after the first failure",
      "basis": "S",`; !strings.Contains(js.String(), want) || !strings.Contains(js.String(), `"secondhand": true`) {
		t.Errorf("the JSON has no secondhand disable fact:\n%s", js.String())
	}
	if n := strings.Count(text.String(), " checked"); n != len(policies.FactsOf("stripe-disable")) {
		t.Errorf("%d facts printed, facts.yaml has %d", n, len(policies.FactsOf("stripe-disable")))
	}
}
