package configfile_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/retrysim/retrysim/policies/configfile"
	"github.com/retrysim/retrysim/scenarios"
	"github.com/retrysim/retrysim/scenarios/scenariotest"
)

// TestScenarioOwnBuiltInOrFile: the file's own scenario wins over a
// built-in of its name; an unknown name lists the file's beside the
// built-ins; a scenario read from a YAML file of the user's is named, so
// no output overwrites it.
func TestScenarioOwnBuiltInOrFile(t *testing.T) {
	mine := scenariotest.Lookup(t, scenarios.Forged)
	mine.Name = "outage"
	own := map[string]scenarios.Scenario{"outage": mine}
	sc, file, err := configfile.Scenario("outage", own, "ci.yaml")
	if err != nil || file != "" || len(sc.Attacks()) == 0 {
		t.Errorf("own outage: attacks %d, file %q, %v", len(sc.Attacks()), file, err)
	}
	_, _, err = configfile.Scenario("nope", own, "ci.yaml")
	if !errors.Is(err, scenarios.ErrUnknown) || !strings.HasSuffix(err.Error(), " (or from ci.yaml: outage)") {
		t.Errorf("unknown: %v", err)
	}
	if _, _, err := configfile.Scenario("nope", nil, ""); err == nil || strings.Contains(err.Error(), "(or from") {
		t.Errorf("unknown without a file: %v", err)
	}
	path := filepath.Join(t.TempDir(), "mine.yaml")
	src, err := scenarios.SourceIn(scenarios.Default, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, src, 0o600); err != nil {
		t.Fatal(err)
	}
	_, file, err = configfile.Scenario(path, nil, "")
	if err != nil || file != path {
		t.Errorf("a YAML file: file %q, %v", file, err)
	}
}
