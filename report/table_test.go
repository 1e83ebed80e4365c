package report_test

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/retrysim/retrysim/policies"
	"github.com/retrysim/retrysim/report"
)

// The policies overview fits 120 columns, wrapping its long cells under
// their own column rather than running past the edge, and drops no word.
func TestPoliciesTableFits(t *testing.T) {
	var all []policies.Policy
	cat := policies.Default()
	for _, n := range cat.Names() {
		p, err := cat.Lookup(n)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, p)
	}
	var buf bytes.Buffer
	if err := report.WritePolicies(&buf, all, report.FormatText, false); err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(buf.String(), "\n") {
		if n := utf8.RuneCountInString(l); n > report.DefaultWidth {
			t.Errorf("%d columns: %s", n, l)
		}
	}
	words := strings.Join(strings.Fields(buf.String()), " ")
	for _, p := range all {
		for _, w := range strings.Fields(p.Summary) {
			if !strings.Contains(words, w) {
				t.Errorf("%s: the summary's word %q is missing", p.Name, w)
			}
		}
	}
}
