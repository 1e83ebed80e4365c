package simulator

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strconv"
	"strings"
	"testing"
)

// TestKindsListEveryKind: a record kind or an outcome declared in
// record.go but missing from Kinds or Outcomes would be skipped, or
// refused, by every reader of a results stream.
func TestKindsListEveryKind(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "record.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, s := range g.Specs {
			v := s.(*ast.ValueSpec)
			for i, name := range v.Names {
				lit, ok := v.Values[i].(*ast.BasicLit)
				if !ok || lit.Kind != token.STRING {
					continue
				}
				val, _ := strconv.Unquote(lit.Value)
				typ, _ := v.Type.(*ast.Ident)
				switch {
				case strings.HasPrefix(name.Name, "Kind") && !KnownKind(val):
					t.Errorf("%s (%q) is not in Kinds", name.Name, val)
				case typ != nil && typ.Name == "Outcome" && !Outcome(val).Known():
					t.Errorf("%s (%q) is not in Outcomes", name.Name, val)
				}
			}
		}
	}
}
