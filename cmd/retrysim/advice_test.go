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

	"github.com/retrysim/retrysim/cmd/retrysim/advice"
	"github.com/retrysim/retrysim/report"
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
// setting (simulator.Setting) and the command spells it (advice.Flag).
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
			case d.IsDir() && (d.Name() == "testdata" || path == filepath.Join("../../simulator", "capture")):
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
					t.Errorf("%s: %s names the command's flag --%s: name a simulator.Setting and let the command spell it (cmd/retrysim/advice)", path, lit.Value, m[2])
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

// TestEverySettingIsAFlag: the command spells every setting the library's
// advice may name as one of its own flags.
func TestEverySettingIsAFlag(t *testing.T) {
	flags := commandFlags()
	for _, s := range report.Settings() {
		spelled := advice.Flag(s)
		name, _, _ := strings.Cut(strings.TrimPrefix(spelled, "--"), " ")
		if !strings.HasPrefix(spelled, "--") || !slices.Contains(flags, name) {
			t.Errorf("setting %s is spelled %q, not as a flag of the command", s, spelled)
		}
	}
}
