package configfile_test

import (
	"strings"
	"testing"

	"github.com/retrysim/retrysim/policies"
	"github.com/retrysim/retrysim/policies/configfile"
)

// TestRead: the data sections are read, every key's line is kept, and an
// unknown key is named with its file and line beside what could be read.
func TestRead(t *testing.T) {
	data := []byte("events: 5\nsecrets:\n  stripe: whsec_from_file\nscenarios:\n  mine:\n    faults: []\nbogus: 1\n")
	f, err := configfile.Read("retrysim.yaml", data, policies.Default(), map[string]bool{"events": true})
	if err == nil || !strings.Contains(err.Error(), `retrysim.yaml:7: unknown key "bogus" (valid: the flags of any command, events; or policies, secrets, scenarios)`) {
		t.Errorf("error %v, want the unknown key named with its line", err)
	}
	if f.Secrets["stripe"] != "whsec_from_file" {
		t.Errorf("secrets %v", f.Secrets)
	}
	if _, ok := f.Scenarios["mine"]; !ok {
		t.Errorf("scenarios %v, want mine", f.Scenarios)
	}
	if f.Lines["events"] != 1 || f.Lines["secrets"] != 2 {
		t.Errorf("lines %v", f.Lines)
	}
	if f.Catalogue == nil {
		t.Error("no catalogue")
	}
}

// TestReadNotAMap: a file that is not a map of keys has no sections, and
// is no error here (the settings' reader says what is wrong with it).
func TestReadNotAMap(t *testing.T) {
	f, err := configfile.Read("c.yaml", []byte("- a\n- b\n"), policies.Default(), nil)
	if err != nil || len(f.Secrets) != 0 || len(f.Scenarios) != 0 || f.Lines != nil {
		t.Errorf("Read of a list = %+v, %v", f, err)
	}
}
