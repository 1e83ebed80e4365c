package simulator

import (
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/retrysim/retrysim/scenarios"
)

// TestEveryEffectIsCarriedOut: each field of scenarios.Effect, what a fault
// type decides for an attempt, is read by the engine's own code, so a
// fault setting it does something. (scenarios' TestEveryFaultTypeActs
// checks that every fault type sets an effect, or acts at moments.)
func TestEveryEffectIsCarriedOut(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var src strings.Builder
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		src.Write(b)
	}
	typ := reflect.TypeFor[scenarios.Effect]()
	for i := range typ.NumField() {
		name := typ.Field(i).Name
		if !regexp.MustCompile(`\bact\.` + name + `\b`).MatchString(src.String()) {
			t.Errorf("scenarios.Effect.%s is never read by the engine (act.%s): a fault setting it does nothing", name, name)
		}
	}
}
