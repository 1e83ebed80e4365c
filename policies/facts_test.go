package policies

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestEveryStatedFactHasARow: each fact a built-in policy states (its
// schedule, timeout, signature, dedup id and every rule it sets) has a row
// in facts.yaml naming the policy, so no number goes without its source.
func TestEveryStatedFactHasARow(t *testing.T) {
	for _, name := range Builtin() {
		p := mustLookup(t, name)
		rows := FactsOf(name)
		for _, kind := range FactKinds(&p) {
			if !slices.ContainsFunc(rows, func(f Fact) bool { return f.Fact == kind }) {
				t.Errorf("%s states its %s, and facts.yaml has no row for it", name, kind)
			}
		}
	}
}

// TestFactRowsAreWellFormed: every row names built-in policies, a basis of
// D, C, S or I, a source and the date it was checked.
func TestFactRowsAreWellFormed(t *testing.T) {
	date := regexp.MustCompile(`^20\d\d-\d\d-\d\d$`)
	builtin := Builtin()
	for _, pf := range AllFacts() {
		for _, f := range pf.Rows {
			where := pf.Provider + " " + f.Fact + " (" + f.Value + ")"
			if len(f.Policies) == 0 || f.Value == "" || f.Source == "" {
				t.Errorf("%s: a row without policies, value or source", where)
			}
			for _, p := range f.Policies {
				if !slices.Contains(builtin, p) {
					t.Errorf("%s: %q is not a built-in policy", where, p)
				}
			}
			if !strings.Contains("DCSI", f.Basis) || len(f.Basis) != 1 {
				t.Errorf("%s: basis %q is not D, C, S or I", where, f.Basis)
			}
			if !date.MatchString(f.Checked) {
				t.Errorf("%s: checked %q is not a date", where, f.Checked)
			}
		}
	}
}

// Markers around the generated fact tables in docs/PROVIDERS.md.
const (
	factsBegin = "<!-- fact tables: generated from policies/facts.yaml by go test ./policies -run TestFactTablesInDocs -update -->\n"
	factsEnd   = "<!-- end of fact tables -->\n"
)

// TestFactTablesInDocs: docs/PROVIDERS.md's fact tables are those
// facts.yaml gives (-update rewrites them).
func TestFactTablesInDocs(t *testing.T) {
	var gen bytes.Buffer
	gen.WriteString(factsBegin)
	for _, pf := range AllFacts() {
		gen.WriteString("\n### " + pf.Provider + "\n\n")
		if err := WriteFactTable(&gen, pf.Rows, true); err != nil {
			t.Fatal(err)
		}
	}
	gen.WriteString("\n" + factsEnd)
	file := filepath.Join("..", "docs", "PROVIDERS.md")
	doc, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	begin, end := bytes.Index(doc, []byte(factsBegin)), bytes.Index(doc, []byte(factsEnd))
	if begin < 0 || end < begin {
		t.Fatalf("%s has no fact tables between %q and %q", file, factsBegin, factsEnd)
	}
	got := doc[begin : end+len(factsEnd)]
	if bytes.Equal(got, gen.Bytes()) {
		return
	}
	if !*update {
		t.Fatalf("%s's fact tables are not facts.yaml's (go test ./policies -run TestFactTablesInDocs -update)", file)
	}
	out := append(append(append([]byte{}, doc[:begin]...), gen.Bytes()...), doc[end+len(factsEnd):]...)
	if err := os.WriteFile(file, out, 0o644); err != nil {
		t.Fatal(err)
	}
}
