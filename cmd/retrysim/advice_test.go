package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/retrysim/retrysim/report"
	"github.com/retrysim/retrysim/report/advice"
	"github.com/retrysim/retrysim/simulator"
)

// commandFlags names every flag of every retrysim command.
func commandFlags() []string {
	seen := map[string]bool{}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for _, fl := range []*pflag.FlagSet{c.Flags(), c.PersistentFlags()} {
			fl.VisitAll(func(f *pflag.Flag) { seen[f.Name] = true })
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(newRootCmd())
	var out []string
	for n := range seen {
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}

// TestLibraryNamesNoFlag: the library speaks Go. No string in report/ or
// simulator/ (tests aside) names a flag of the command; advice names a
// setting (simulator.Setting) and the command spells it (advice.Flag in
// report/advice, the one package below cmd whose words are the flags).
// simulator/capture reads curl command lines, whose flags are curl's;
// program.go in simulator/demo is the body of the example handler
// programs, and parses those programs' own flags.
func TestLibraryNamesNoFlag(t *testing.T) {
	flags := commandFlags()
	if len(flags) < 20 {
		t.Fatalf("found only %d flags: %v", len(flags), flags)
	}
	quoted := make([]string, len(flags))
	for i, f := range flags {
		quoted[i] = regexp.QuoteMeta(f)
	}
	flagRe := regexp.MustCompile(`(^|[^-\w])--(` + strings.Join(quoted, "|") + `)\b`)
	checked := 0
	for _, dir := range []string{"../../report", "../../simulator"} {
		err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			switch {
			case err != nil:
				return err
			case d.IsDir() && (d.Name() == "testdata" || path == filepath.Join("../../simulator", "capture") || path == filepath.Join("../../report", "advice")):
				return filepath.SkipDir
			case d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go"),
				path == filepath.Join("../../simulator", "demo", "program.go"):
				return nil
			}
			f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
			if err != nil {
				return err
			}
			checked++
			ast.Inspect(f, func(n ast.Node) bool {
				lit, ok := n.(*ast.BasicLit)
				if !ok || lit.Kind != token.STRING {
					return true
				}
				s, err := strconv.Unquote(lit.Value)
				if err != nil {
					s = lit.Value
				}
				if m := flagRe.FindStringSubmatch(s); m != nil {
					t.Errorf("%s: %s names the command's flag --%s: name a simulator.Setting and let the command spell it (report/advice)", path, lit.Value, m[2])
				}
				return true
			})
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if checked < 50 {
		t.Fatalf("checked only %d files", checked)
	}
}

// declaredSettings reads the sources of simulator and report and returns
// every constant they declare with the type Setting, with its value
// (string constants of scenarios, which some spell, are read too).
func declaredSettings(t *testing.T) []simulator.Setting {
	t.Helper()
	type decl struct {
		pkg, typ string
		val      ast.Expr
	}
	consts := map[string]decl{} // by "pkg.Name"
	var settings []string
	for _, pkg := range []string{"simulator", "report", "scenarios"} {
		files, err := filepath.Glob(filepath.Join("..", "..", pkg, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		for _, path := range files {
			if strings.HasSuffix(path, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range f.Decls {
				g, ok := d.(*ast.GenDecl)
				if !ok || g.Tok != token.CONST {
					continue
				}
				for _, spec := range g.Specs {
					v := spec.(*ast.ValueSpec)
					typ := ""
					switch e := v.Type.(type) {
					case *ast.Ident:
						typ = e.Name
					case *ast.SelectorExpr:
						typ = e.Sel.Name
					}
					for i, n := range v.Names {
						if i < len(v.Values) {
							consts[pkg+"."+n.Name] = decl{pkg, typ, v.Values[i]}
						}
						if typ == "Setting" {
							settings = append(settings, pkg+"."+n.Name)
						}
					}
				}
			}
		}
	}
	var eval func(pkg string, e ast.Expr) string
	eval = func(pkg string, e ast.Expr) string {
		switch e := e.(type) {
		case *ast.BasicLit:
			s, err := strconv.Unquote(e.Value)
			if err != nil {
				t.Fatal(err)
			}
			return s
		case *ast.BinaryExpr:
			return eval(pkg, e.X) + eval(pkg, e.Y)
		case *ast.ParenExpr:
			return eval(pkg, e.X)
		case *ast.Ident:
			if d, ok := consts[pkg+"."+e.Name]; ok {
				return eval(d.pkg, d.val)
			}
		case *ast.SelectorExpr:
			if x, ok := e.X.(*ast.Ident); ok {
				if d, ok := consts[x.Name+"."+e.Sel.Name]; ok {
					return eval(d.pkg, d.val)
				}
			}
		}
		t.Fatalf("cannot read the value of a setting: %T", e)
		return ""
	}
	out := make([]simulator.Setting, len(settings))
	for i, name := range settings {
		d := consts[name]
		out[i] = simulator.Setting(eval(d.pkg, d.val))
	}
	return out
}

// TestEverySettingIsAFlag: the command spells every setting the library's
// advice may name as one of its own flags.
// The settings are read from the code: every constant of type Setting
// that simulator and report declare, so that a new one cannot be missed.
func TestEverySettingIsAFlag(t *testing.T) {
	flags := commandFlags()
	declared := declaredSettings(t)
	if len(declared) < 18 {
		t.Fatalf("found only %d settings declared: %v", len(declared), declared)
	}
	listed := report.Settings()
	for _, s := range declared {
		if !slices.Contains(listed, s) {
			t.Errorf("setting %s is declared but not in report.Settings", s)
		}
		spelled := advice.Flag(s)
		name, _, _ := strings.Cut(strings.TrimPrefix(spelled, "--"), " ")
		if !strings.HasPrefix(spelled, "--") || !slices.Contains(flags, name) {
			t.Errorf("setting %s is spelled %q, not as a flag of the command", s, spelled)
		}
	}
}
